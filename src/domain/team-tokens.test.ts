import { describe, expect, it } from 'vitest'
import { ADMIN_VIEWER, checkTeamTokens, parseTeamToken, sees, teamViewer } from './team-tokens.js'

describe('parseTeamToken', () => {
  it('splits NAME:TOKEN:ACCOUNTS at the first and last colon', () => {
    expect(parseTeamToken('qa:tok_0123456789:acct_a,acct_b')).toEqual({
      name: 'qa',
      token: 'tok_0123456789',
      accounts: ['acct_a', 'acct_b'],
    })
    expect(parseTeamToken('qa:a:b:c:d:e:f:g:h:acct').token).toBe('a:b:c:d:e:f:g:h')
    expect(parseTeamToken('qa:tok_0123456789: acct_a , acct_b').accounts).toEqual(['acct_a', 'acct_b'])
  })

  it('refuses what cannot be used, without printing the secret', () => {
    for (const [spec, problem] of [
      ['qa', /expected NAME:TOKEN:ACCOUNT/],
      [':tok_0123456789:acct', /expected NAME:TOKEN:ACCOUNT/],
      ['qa:tok_0123456789', /expected NAME:TOKEN:ACCOUNT/],
      ['qa:short:acct', /shorter than 8/],
      ['qa:tok 0123456789:acct', /whitespace/],
      ['qa::acct', /empty|shorter/],
      ['qa:tok_0123456789:', /blank/],
      ['qa:tok_0123456789:a,,b', /blank/],
      ['q/a:tok_0123456789:acct', /name/],
      [`${'n'.repeat(65)}:tok_0123456789:acct`, /name/],
    ] as const) {
      expect(() => parseTeamToken(spec), spec).toThrow(problem)
    }
    expect(() => parseTeamToken('qa:secret_value_123')).toThrow(/^(?!.*secret_value_123)/s)
  })

  it('refuses a name or a token given twice, or the admin token', () => {
    const a = { name: 'a', token: 'tok_aaaaaaaa', accounts: ['x'] }
    expect(() => checkTeamTokens([a, { ...a, token: 'tok_bbbbbbbb' }])).toThrow(/"a" is given twice/)
    expect(() => checkTeamTokens([a, { ...a, name: 'b' }])).toThrow(/another team's token/)
    expect(() => checkTeamTokens([a], 'tok_aaaaaaaa')).toThrow(/the admin token/)
    expect(() =>
      checkTeamTokens([a, { name: 'b', token: 'tok_bbbbbbbb', accounts: ['x'] }], 'adm_cccccccc'),
    ).not.toThrow()
  })
})

describe('viewers', () => {
  const teams = [
    { name: 'a', token: 'tok_aaaaaaaa', accounts: ['x'] },
    { name: 'b', token: 'tok_bbbbbbbb', accounts: ['y', 'z'] },
  ]
  it('names the team of a token, and nothing for a near miss', () => {
    expect(teamViewer(teams, 'tok_bbbbbbbb')).toEqual({ role: 'team', name: 'b', accounts: new Set(['y', 'z']) })
    expect(teamViewer(teams, 'tok_bbbbbbb')).toBeUndefined()
    expect(teamViewer(teams, 'tok_bbbbbbbbb')).toBeUndefined()
    expect(teamViewer(teams, '')).toBeUndefined()
  })
  it('lets the admin see every account and a team its own only (never an item without one)', () => {
    const b = teamViewer(teams, 'tok_bbbbbbbb')!
    expect([sees(b, 'y'), sees(b, 'z'), sees(b, 'x'), sees(b, null), sees(b, undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ])
    expect([sees(ADMIN_VIEWER, 'x'), sees(ADMIN_VIEWER, null)]).toEqual([true, true])
  })
})

describe('a sandbox with team tokens', () => {
  it('refuses a team token naming an account no API key has', async () => {
    const { SandboxState } = await import('./sandbox.js')
    const createSandbox = (options: ConstructorParameters<typeof SandboxState>[0]) => new SandboxState(options)
    expect(() =>
      createSandbox({
        apiKeys: { key_a: 'pro:acct_a' },
        teamTokens: [{ name: 'qa', token: 'tok_qa_12345678', accounts: ['acct_a', 'acct_typo'] }],
      }),
    ).toThrow(/no API key has the account "acct_typo" \(accounts: acct_a\)/)
    const sandbox = createSandbox({
      apiKeys: { key_a: 'pro:acct_a' },
      teamTokens: [{ name: 'qa', token: 'tok_qa_12345678', accounts: ['acct_a'] }],
    })
    expect(sandbox.teamTokens.map((t) => t.name)).toEqual(['qa'])
    sandbox.dispose()
  })
})
