import { describe, expect, it } from 'vitest'

import { checkSchema, clientSupportSchema } from '../../../contract/checks.js'
import { latestKey } from './compat-data.js'
import { compatibilityChecks, DEFAULT_EMAIL_CLIENTS, KNOWN_EMAIL_CLIENTS, parseEmailClients } from './compatibility.js'

const FLEX_EMAIL = `<!doctype html>
<html lang="en"><head><style>
  .row { display: flex; }
  a:hover { color: red }
</style></head>
<body>
  <div style="display:flex;gap:8px"><img src="https://x.test/a.svg" alt="a"></div>
  <p style="color:#333">plain</p>
</body></html>`

describe('compatibilityChecks', () => {
  const { checks, clients } = compatibilityChecks(FLEX_EMAIL, DEFAULT_EMAIL_CLIENTS)
  const byId = (id: string) => checks.find((check) => check.id === id)

  it('flags display:flex as a warning naming Outlook on Windows, at its first occurrence, with caniemail url and notes', () => {
    const flex = byId('compat.css-display-flex')!
    expect(flex.severity).toBe('warning')
    expect(flex.category).toBe('compatibility')
    expect(flex.message).toMatch(/^display:flex is not supported by .*Outlook \(Windows\)/)
    expect(flex.message).toMatch(/use a table layout$/)
    expect(flex.clients).toContain('outlook.windows')
    expect(flex.url).toBe('https://www.caniemail.com/features/css-display-flex/')
    expect(flex.location).toMatchObject({ line: 3, column: 10 })
    expect(flex.location!.excerpt).toContain('display: flex')
    expect(Array.isArray(flex.notes)).toBe(true)
  })

  it('finds selectors, pseudo-classes, at-rules, inline properties and image formats', () => {
    for (const id of ['compat.css-pseudo-class-hover', 'compat.css-gap', 'compat.image-svg', 'compat.html-style'])
      expect(byId(id), id).toBeDefined()
    expect(byId('compat.css-gap')!.location!.line).toBe(7)
  })

  it('reports every check in the contract shape, and a support percentage per known client', () => {
    for (const check of checks) expect(checkSchema.safeParse(check).success).toBe(true)
    expect(clients.map((client) => client.client)).toEqual([...KNOWN_EMAIL_CLIENTS])
    for (const client of clients) expect(clientSupportSchema.safeParse(client).success).toBe(true)
    const outlook = clients.find((client) => client.client === 'outlook.windows')!
    const apple = clients.find((client) => client.client === 'apple-mail.macos')!
    expect(outlook.counted).toBe(true)
    expect(outlook.supported).toBeLessThan(apple.supported)
    expect(clients.find((client) => client.client === 'orange.ios')!.counted).toBe(false)
  })

  it('is a warning only for counted clients: unsupported by non-counted clients alone is info', () => {
    const onlyApple = compatibilityChecks(FLEX_EMAIL, ['apple-mail.macos'])
    const flex = onlyApple.checks.find((check) => check.id === 'compat.css-display-flex')!
    expect(flex.severity).toBe('info')
    expect(flex.message).toMatch(/not among the clients counted/)
    expect(onlyApple.checks.every((check) => check.severity !== 'error')).toBe(true)
  })

  it('counts every known client when none is given, and reports nothing for plain supported HTML', () => {
    expect(compatibilityChecks(FLEX_EMAIL, []).clients.every((client) => client.counted)).toBe(true)
    expect(
      compatibilityChecks('<table><tr><td>Hello</td></tr></table>', DEFAULT_EMAIL_CLIENTS).checks.filter(
        (check) => check.severity === 'warning',
      ),
    ).toEqual([])
  })

  it('reads a 50,000-element email (features found once, first occurrence kept)', () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => `<tr><td style="display:flex">${i}</td></tr>`).join('')
    const result = compatibilityChecks(`<table>${rows}</table>`, DEFAULT_EMAIL_CLIENTS)
    expect(result.checks.filter((check) => check.id === 'compat.css-display-flex')).toHaveLength(1)
    expect(result.checks.find((check) => check.id === 'compat.css-display-flex')!.location!.column).toBe(23)
  })
})

describe('parseEmailClients', () => {
  it('takes ids, families and comma lists', () => {
    expect(parseEmailClients('outlook.windows, gmail.ios')).toEqual(['outlook.windows', 'gmail.ios'])
    expect(parseEmailClients(['outlook'])).toContain('outlook.outlook-com')
    expect(parseEmailClients('default')).toEqual([...DEFAULT_EMAIL_CLIENTS])
  })

  it('throws naming the unknown ids and the valid ones', () => {
    expect(() => parseEmailClients('outlok.windows,gmail.ios,lotus')).toThrow(
      /Unknown email clients: outlok\.windows, lotus\. Valid: .*gmail\.desktop-webmail/,
    )
  })

  it('has every default client in the data', () => {
    for (const id of DEFAULT_EMAIL_CLIENTS) expect(KNOWN_EMAIL_CLIENTS).toContain(id)
  })
})

describe('latestKey', () => {
  it('takes the latest date, the greatest version, or the last of mixed keys', () => {
    expect(latestKey(['2019-02', '2016', '2020-11'])).toBe('2020-11')
    expect(latestKey(['9.3', '12.4', '10.3'])).toBe('12.4')
    expect(latestKey(['2011', '2016', '16.80'])).toBe('16.80')
  })
})
