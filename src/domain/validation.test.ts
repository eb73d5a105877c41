import { describe, expect, it } from 'vitest'
import { emailSendRequest, whatsappSendRequest } from '../contract/messages.js'
import { subscriberCreateRequest } from '../contract/subscriber.js'
import { ApiError } from './errors.js'
import { validateBody } from './validation.js'

function errorOf(run: () => unknown): { code: string; param?: string; message: string } {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message }
    throw error
  }
  throw new Error('expected a validation error')
}

/** Parses the body as the guard does (from JSON text), so object shapes match the wire's. */
const fromJson = (text: string) => JSON.parse(text) as Record<string, unknown>

/** A generous bound: the old validator took 1.7–8 s on these; the figures are in docs/reliability.md. */
const FAR_BELOW_THE_OLD_COST_MS = 1_000

function timed<T>(run: () => T): { ms: number; result: T } {
  const started = performance.now()
  const result = run()
  return { ms: performance.now() - started, result }
}

describe('error.param notation', () => {
  it('dots nested keys, brackets array items, dots map values', () => {
    expect(
      errorOf(() => validateBody(emailSendRequest, { to: 'a@b.co', subject: 's', html: 'h', from: { email: 'nope' } })),
    ).toMatchObject({ code: 'invalid_email', param: 'from.email' })
    expect(
      errorOf(() => validateBody(subscriberCreateRequest, { email: 'a@b.co', tags: ['a', 'b', 'c', 4] })),
    ).toMatchObject({
      code: 'invalid_parameter',
      param: 'tags[3]',
      message: '`tags[3]` must be a string, not a number.',
    })
    expect(
      errorOf(() =>
        validateBody(whatsappSendRequest, {
          to: '+14155550123',
          template: 't',
          language: 'en',
          parameters: { greeting: 'hi', name: 7 },
        }),
      ),
    ).toMatchObject({
      code: 'invalid_parameter',
      param: 'parameters.name',
      message: '`parameters.name` must be a string, not a number.',
    })
  })
})

describe('validation stops at the first error, whatever the size of the body (issue 11)', () => {
  it('a 1 MiB array of numbers: tags[0], without visiting the 200,000 others', () => {
    const body = fromJson(`{"email":"a@b.co","tags":[${Array.from({ length: 200_000 }, (_, i) => i).join(',')}]}`)
    const { ms, result } = timed(() => errorOf(() => validateBody(subscriberCreateRequest, body)))
    expect(result).toMatchObject({ code: 'invalid_parameter', param: 'tags[0]' })
    expect(ms).toBeLessThan(FAR_BELOW_THE_OLD_COST_MS)
  })

  it('300,000 empty strings: tags[0] too short', () => {
    const body = fromJson(`{"email":"a@b.co","tags":[${Array.from({ length: 300_000 }, () => '""').join(',')}]}`)
    const { ms, result } = timed(() => errorOf(() => validateBody(subscriberCreateRequest, body)))
    expect(result).toMatchObject({ code: 'invalid_parameter', param: 'tags[0]' })
    expect(ms).toBeLessThan(FAR_BELOW_THE_OLD_COST_MS)
  })

  it('an array longer than its bound is "too long" once the first 101 items are good; items beyond are not looked at', () => {
    const body = { email: 'a@b.co', tags: [...Array.from({ length: 250_000 }, () => 'a'), 5] }
    expect(errorOf(() => validateBody(subscriberCreateRequest, body))).toMatchObject({
      param: 'tags',
      message: '`tags` may hold at most 100 tags.',
    })
    // A bad item within the bound is still named first.
    expect(
      errorOf(() =>
        validateBody(subscriberCreateRequest, {
          email: 'a@b.co',
          tags: [...Array.from({ length: 50 }, () => 'a'), 5, ...Array.from({ length: 500 }, () => 'b')],
        }),
      ),
    ).toMatchObject({ param: 'tags[50]' })
  })

  it('deep nesting: the first level that is wrong', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    expect(
      errorOf(() => validateBody(subscriberCreateRequest, fromJson(`{"email":"a@b.co","tags":${deep}}`))),
    ).toMatchObject({ param: 'tags[0]', message: '`tags[0]` must be a string, not an array.' })
    expect(
      errorOf(() =>
        validateBody(emailSendRequest, fromJson(`{"to":"a@b.co","subject":"s","html":"h","from":{"email":${deep}}}`)),
      ),
    ).toMatchObject({ param: 'from.email' })
    expect(
      errorOf(() =>
        validateBody(
          whatsappSendRequest,
          fromJson(`{"to":"+14155550123","template":"t","language":"en","parameters":{"a":${deep}}}`),
        ),
      ),
    ).toMatchObject({ param: 'parameters.a' })
  })

  it('50,000 keys: the first unknown one, or the first non-string map value', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')
    const top = fromJson(`{${keys}}`)
    const first = timed(() => errorOf(() => validateBody(subscriberCreateRequest, top)))
    expect(first.result).toMatchObject({ code: 'unknown_parameter', param: 'k0' })
    expect(first.ms).toBeLessThan(FAR_BELOW_THE_OLD_COST_MS)
    const map = fromJson(`{"to":"+14155550123","template":"t","language":"en","parameters":{${keys}}}`)
    const second = timed(() => errorOf(() => validateBody(whatsappSendRequest, map)))
    expect(second.result).toMatchObject({ code: 'invalid_parameter', param: 'parameters.k0' })
    expect(second.ms).toBeLessThan(FAR_BELOW_THE_OLD_COST_MS)
  })

  it('still returns the parsed body when all is well (map values kept as sent, __proto__ included)', () => {
    const body = fromJson(
      '{"to":"+14155550123","template":"t","language":"en","parameters":{"__proto__":"p","name":"Ana"}}',
    )
    const parsed = validateBody(whatsappSendRequest, body)
    expect(Object.keys(parsed.parameters!)).toEqual(['__proto__', 'name'])
    expect(validateBody(subscriberCreateRequest, { email: 'a@b.co', tags: ['x', 'y'], first_name: null })).toEqual({
      email: 'a@b.co',
      tags: ['x', 'y'],
      first_name: null,
    })
  })
})
