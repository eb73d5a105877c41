import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script of the build, without declarations
import { STAND_IN } from '../../scripts/lazy-fetch-bases.mjs'
import { startCli } from '../cli-child.js'

/**
 * The CLI's start and its API's answers load no Fetch (node's undici, behind the globals
 * `Response`, `Request`, `Headers`, `MessageEvent`): loading it cost ~30 ms of every start
 * (docs/decisions/cli-start-without-fetch.md). Read from node's own list of the modules it loaded,
 * which a preload writes when asked.
 */
describe('the CLI starts and answers its API without loading node’s Fetch', () => {
  it('a start, a list, an email, an SMS, a subscriber created: no undici; a subscriber update (an event) works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-no-fetch-'))
    const report = join(dir, 'modules.json')
    const preload = join(dir, 'report.mjs')
    // Node's list of the modules it has loaded, written when the test asks (SIGUSR2), then renamed
    // into place: the test polls for the file, which must not be seen half written.
    const [part, done] = [`${report}.part`, report].map((path) => JSON.stringify(path))
    writeFileSync(
      preload,
      `import { renameSync, writeFileSync } from 'node:fs'\nprocess.on('SIGUSR2', () => { writeFileSync(${part}, JSON.stringify(process.moduleLoadList)); renameSync(${part}, ${done}) })\n`,
    )
    const loaded = async () => {
      rmSync(report, { force: true })
      cli.child.kill('SIGUSR2')
      await expect.poll(() => existsSync(report)).toBe(true)
      return JSON.parse(readFileSync(report, 'utf8')) as string[]
    }
    const undici = (modules: string[]) => modules.filter((name) => name.includes('undici'))
    const cli = await startCli(['--no-ui', '--port', '0', '--api-key', 'sk_test_nofetch:pro'], {
      nodeFlags: ['--import', preload],
    })
    try {
      const call = async (method: string, path: string, body?: object) => {
        const answer = await fetch(`${cli.apiUrl}${path}`, {
          method,
          headers: { authorization: 'Bearer sk_test_nofetch', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
      }
      expect((await call('GET', '/subscribers?limit=5')).status).toBe(200)
      const html = '<p>Hi <a href="https://example.com">Ana</a></p>'
      expect(await call('POST', '/email/send', { to: 'ana@example.com', subject: 'Hi', html })).toMatchObject({
        status: 200,
        body: { success: true },
      })
      expect((await call('POST', '/sms/send', { to: '+14155550123', message: 'Your code is 123456' })).status).toBe(200)
      const created = await call('POST', '/subscribers', { email: 'zed@example.com', first_name: 'Zed' })
      expect(created.status).toBe(200)
      expect((await call('GET', '/subscribers/nope')).status).toBe(404)
      const modules = await loaded()
      // The control: the list names what node loaded (node:http, for the server).
      expect(modules).toContain('NativeModule http')
      expect(undici(modules)).toEqual([])
      // An update makes @msw/data's event (rettime's TypedEvent, a MessageEvent through the stand-in): Fetch loads then, and the update is made.
      expect(await call('PUT', `/subscribers/${String(created.body.id)}`, { first_name: 'Zoe' })).toMatchObject({
        status: 200,
        body: { first_name: 'Zoe' },
      })
      expect((await call('GET', `/subscribers/${String(created.body.id)}`)).body).toMatchObject({ first_name: 'Zoe' })
    } finally {
      cli.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the stand-in base the CLI bundle gives Fetch subclasses (scripts/lazy-fetch-bases.mjs)', () => {
  const lazyBase = new Function(`${STAND_IN as string}\nreturn __sendboxLazyBase`)() as (
    name: string,
  ) => new (...args: never[]) => object

  it('a Response subclass: made by the real constructor, with its own prototype and statics', async () => {
    class Answer extends (lazyBase('Response') as unknown as typeof Response) {
      static readonly kind = 'answer'
      get label() {
        return `answer ${this.status}`
      }
    }
    const first = new Answer('hello', { status: 201, headers: { 'x-one': '1' } })
    expect(first).toBeInstanceOf(Answer)
    expect(first).toBeInstanceOf(Response)
    expect(first.label).toBe('answer 201')
    expect(first.headers.get('x-one')).toBe('1')
    expect(await first.text()).toBe('hello')
    expect(Answer.kind).toBe('answer')
    // Response's own statics, through the chain linked by the first instance.
    expect((Answer as unknown as typeof Response).json({ a: 1 }).headers.get('content-type')).toContain(
      'application/json',
    )
    const second = new Answer(null, { status: 204 })
    expect(second.status).toBe(204)
    expect(Object.getPrototypeOf(Object.getPrototypeOf(Answer.prototype))).toBe(Response.prototype)
  })

  it('a MessageEvent subclass (rettime’s TypedEvent): type and data as given', () => {
    const Base = lazyBase('MessageEvent') as unknown as new (type: string, init: MessageEventInit) => MessageEvent
    class Typed extends Base {
      constructor(type: string, init: MessageEventInit) {
        super(type, init)
      }
    }
    const event = new Typed('create', { data: { id: 1 } })
    expect(event).toBeInstanceOf(MessageEvent)
    expect(event).toBeInstanceOf(Event)
    expect(event.type).toBe('create')
    expect(event.data).toEqual({ id: 1 })
  })
})
