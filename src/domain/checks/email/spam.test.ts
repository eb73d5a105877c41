import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkSchema } from '../../../contract/checks.js'
import { spamdSkipReason, startSpamd, type Spamd } from '../../../../test/checks/spamd.js'
import { emailToMime, parseReportRules, parseSpamdAnswer, parseSpamdTarget, spamChecks } from './spam.js'

const SPAMMY = emailToMime({
  message_id: 'msg_spam',
  to: 'someone@example.com',
  created_at: '2026-11-26T08:00:00.000Z',
  text: 'Buy viagra now!!! Cheap viagra, click here',
  email: {
    from: { email: 'deals@example.com', name: 'Zoë’s deals' },
    subject: 'FREE MONEY — ça marche',
    html: '<p>Buy <b>viagra</b> now!!! <a href="http://bit.ly/x">click here</a></p>',
  },
})

describe('emailToMime', () => {
  it('writes the headers (non-ASCII as UTF-8 encoded-words), CRLF lines, and multipart/alternative quoted-printable parts', () => {
    expect(SPAMMY).toMatch(/^From: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <deals@example\.com>\r\n/)
    expect(SPAMMY).toContain('\r\nTo: <someone@example.com>\r\n')
    expect(SPAMMY).toContain('\r\nDate: Thu, 26 Nov 2026 08:00:00 +0000\r\n')
    expect(SPAMMY).toContain('\r\nMessage-ID: <msg_spam@sendbox.invalid>\r\n')
    expect(SPAMMY).toContain(
      '\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="=_sendbox_msg_spam"\r\n',
    )
    expect(SPAMMY).toContain('href=3D"http://bit.ly/x"')
    expect(SPAMMY.replace(/\r\n/g, '')).not.toMatch(/\n/)
    const subject = /Subject: (.*)\r\n/.exec(SPAMMY)![1]!
    const decoded = [...subject.matchAll(/=\?UTF-8\?B\?([^?]+)\?=/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('')
    expect(decoded).toBe('FREE MONEY — ça marche')
    for (const line of SPAMMY.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78)
  })

  it('sends the HTML alone when there is no text, and leaves From out when the send had none', () => {
    const mime = emailToMime({
      message_id: 'm',
      to: 'a@b.c',
      created_at: '2026-01-01T00:00:00Z',
      text: '',
      email: { from: null, subject: 'Hi', html: `<p>${'é'.repeat(100)}</p>` },
    })
    expect(mime).not.toMatch(/^From:/m)
    expect(mime).toContain(
      'Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>=C3=A9',
    )
    expect(mime).toContain('=\r\n')
  })
})

describe('the SPAMC answer', () => {
  it('reads the verdict and the REPORT rules, wrapped descriptions included', () => {
    const answer =
      'SPAMD/1.1 0 EX_OK\r\nContent-length: 10\r\nSpam: True ; 7.2 / 5.0\r\n\r\nContent analysis details:   (7.2 points, 5.0 required)\n\n pts rule name              description\n---- ---------------------- ----------------\n 2.7 MISSING_DATE           Missing Date: header\n 4.5 LONG_RULE              A description that\n                            goes on\n-0.0 NO_RELAYS              Informational\n\n'
    expect(parseSpamdAnswer(answer)).toEqual({
      spam: true,
      score: 7.2,
      threshold: 5,
      rules: [
        { name: 'MISSING_DATE', score: 2.7, description: 'Missing Date: header' },
        { name: 'LONG_RULE', score: 4.5, description: 'A description that goes on' },
        { name: 'NO_RELAYS', score: 0, description: 'Informational' },
      ],
    })
    expect(parseReportRules('no table here')).toEqual([])
    expect(() => parseSpamdAnswer('SPAMD/1.0 76 Bad header line: xyz\r\n\r\n')).toThrow(/76 Bad header line/)
  })

  it('parses HOST:PORT', () => {
    expect(parseSpamdTarget('127.0.0.1:7830')).toEqual({ host: '127.0.0.1', port: 7830 })
    expect(parseSpamdTarget('spamd')).toEqual({ host: 'spamd', port: 783 })
    expect(parseSpamdTarget('[::1]:10783')).toEqual({ host: '::1', port: 10783 })
    expect(() => parseSpamdTarget('a:b:c')).toThrow(/HOST:PORT/)
  })
})

describe('spamChecks without a working spamd', () => {
  let server: Server
  let port = 0
  const sockets: Socket[] = []
  let behaviour: (socket: Socket) => void = () => {}
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.push(socket)
      socket.on('error', () => {})
      behaviour(socket)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('says how to enable spam checks when no spamd is configured: one info check', async () => {
    const checks = await spamChecks(SPAMMY, undefined)
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ id: 'spam.disabled', severity: 'info', category: 'spam' })
    expect(checks[0]!.message).toContain('--spamassassin HOST:PORT')
    expect(checks[0]!.message).toContain('SENDBOX_SPAMASSASSIN')
  })

  it('is one warning when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const freePort = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))
    const checks = await spamChecks(SPAMMY, { host: '127.0.0.1', port: freePort })
    expect(checks).toEqual([expect.objectContaining({ id: 'spam.unavailable', severity: 'warning' })])
    expect(checks[0]!.message).toContain('ECONNREFUSED')
  })

  it('gives up at its deadline on a spamd that never answers, and cuts off an endless answer', async () => {
    behaviour = () => {}
    const silent = await spamChecks(SPAMMY, { host: '127.0.0.1', port }, { timeoutMs: 300 })
    expect(silent[0]!.message).toContain('no answer within 300 ms')
    behaviour = (socket) => {
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const pump = () => {
        while (socket.writable && socket.write(chunk));
      }
      socket.on('drain', pump)
      pump()
    }
    const endless = await spamChecks(SPAMMY, { host: '127.0.0.1', port }, { maxBytes: 256 * 1024 })
    expect(endless[0]!.message).toContain('over 262144 bytes')
  })
})

const skip = spamdSkipReason()
if (skip) console.log(`skipped the real spamd tests: ${skip}`)

describe.skipIf(skip !== undefined)("spamChecks against Debian's spamd", () => {
  let spamd: Spamd
  beforeAll(async () => {
    spamd = await startSpamd()
    // The first message a spamd child scores loads its rules: seconds on a busy machine.
    await spamChecks(SPAMMY, spamd, { timeoutMs: 60_000 })
  }, 150_000)
  afterAll(async () => {
    await spamd?.stop()
  })

  it('reports the score and each rule hit', async () => {
    const checks = await spamChecks(SPAMMY, spamd, { timeoutMs: 30_000 })
    for (const check of checks) expect(checkSchema.safeParse(check).success).toBe(true)
    const score = checks.find((check) => check.id === 'spam.score')!
    expect(score.message).toMatch(/^SpamAssassin score -?\d+\.\d \(threshold 5\.0\)/)
    expect(typeof score.score).toBe('number')
    expect(score.severity).toBe(score.score! >= 5 ? 'error' : 'info')
    const drug = checks.find((check) => check.id === 'spam.DRUGS_ERECTILE')!
    expect(drug).toMatchObject({ category: 'spam', severity: 'warning' })
    expect(drug.message).toContain('erectile')
  }, 40_000)

  it('is an error over the threshold', async () => {
    const worse = SPAMMY.replace(/^Date: .*\r\n/m, '')
      .replace(/^Message-ID: .*\r\n/m, '')
      .replace('Subject: ', 'Subject: FREE VIAGRA NOW ')
    const checks = await spamChecks(
      worse.replace(
        'Buy viagra now!!!',
        'Buy viagra now!!! 100% FREE cialis levitra, no prescription, lowest price, order now',
      ),
      spamd,
      { timeoutMs: 30_000 },
    )
    const score = checks.find((check) => check.id === 'spam.score')!
    expect(score.score).toBeGreaterThanOrEqual(5)
    expect(score.severity).toBe('error')
  }, 40_000)
})
