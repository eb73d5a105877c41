import { describe, expect, it } from 'vitest'
import {
  createOriginPolicy,
  hostnameOfHostHeader,
  isLoopbackHostname,
  parseAllowedHost,
  parseCorsOrigin,
} from './origin-policy.js'

describe('isLoopbackHostname', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    '127.0.0.1',
    '127.1.2.3',
    '[::1]',
    '::1',
    '[::ffff:7f00:1]',
  ])('%s is loopback', (name) => {
    expect(isLoopbackHostname(name)).toBe(true)
  })
  it.each([
    'localhost.evil.test',
    'evil.test',
    '128.0.0.1',
    '127.0.0.256',
    '0.0.0.0',
    '[::2]',
    'mylocalhost',
    '10.0.0.1',
  ])('%s is not', (name) => {
    expect(isLoopbackHostname(name)).toBe(false)
  })
})

describe('hostnameOfHostHeader', () => {
  it('strips the port, lower-cases, keeps IPv6 brackets', () => {
    expect(hostnameOfHostHeader('LocalHost:4010')).toBe('localhost')
    expect(hostnameOfHostHeader('[::1]:4010')).toBe('[::1]')
    expect(hostnameOfHostHeader('evil.test.')).toBe('evil.test')
  })
  it('refuses what is not host[:port]', () => {
    expect(hostnameOfHostHeader('a b')).toBeUndefined()
    expect(hostnameOfHostHeader('host:port')).toBeUndefined()
    expect(hostnameOfHostHeader('[::1')).toBeUndefined()
    expect(hostnameOfHostHeader('')).toBeUndefined()
  })
})

describe('the default policy (loopback only)', () => {
  const policy = createOriginPolicy({ boundHost: '127.0.0.1' })

  it('grants CORS to loopback origins on any port, echoing the origin', () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://app.localhost',
      'http://localhost',
    ]) {
      expect(policy.corsOriginFor(origin), origin).toBe(origin)
    }
  })

  it('grants nothing to other origins, `null` and odd schemes', () => {
    for (const origin of [
      'https://evil.test',
      'http://localhost.evil.test',
      'null',
      'file://',
      'chrome-extension://abc',
      'http://192.168.1.5:4010',
    ]) {
      expect(policy.corsOriginFor(origin), origin).toBeUndefined()
      expect(policy.allowsOrigin(origin), origin).toBe(false)
    }
    expect(policy.corsOriginFor(undefined)).toBeUndefined()
  })

  it('allows a same-origin page of an allowed host (a LAN address the server answers on)', () => {
    expect(policy.allowsOrigin('http://192.168.1.5:4010', '192.168.1.5:4010')).toBe(true)
    expect(policy.allowsOrigin('http://evil.test:4010', 'evil.test:4010')).toBe(false)
  })

  it('accepts loopback names, IP literals and the bound host as Host; refuses other names (DNS rebinding)', () => {
    for (const host of [
      'localhost:4010',
      '127.0.0.1:4010',
      '[::1]:4010',
      'sendbox.localhost',
      '192.168.1.5:4010',
      '[fe80::1]:4010',
      '127.0.0.1',
    ]) {
      expect(policy.allowsHost(host), host).toBe(true)
    }
    for (const host of ['evil.test', 'evil.test:4010', 'localhost.evil.test', '', 'a b']) {
      expect(policy.allowsHost(host), host).toBe(false)
    }
  })
})

describe('flags', () => {
  it('--cors-origin adds exact origins (normalised)', () => {
    const policy = createOriginPolicy({ corsOrigins: ['http://App.test:3000/'] })
    expect(policy.corsOriginFor('http://app.test:3000')).toBe('http://app.test:3000')
    expect(policy.corsOriginFor('http://app.test:3001')).toBeUndefined()
    expect(policy.corsOriginFor('https://app.test:3000')).toBeUndefined()
    expect(policy.wildcard).toBe(false)
  })

  it('--cors-origin * grants every origin with *', () => {
    const policy = createOriginPolicy({ corsOrigins: ['*'] })
    expect(policy.wildcard).toBe(true)
    expect(policy.corsOriginFor('https://evil.test')).toBe('*')
    expect(policy.allowsOrigin('null')).toBe(true)
  })

  it('--allowed-host adds a name, or a domain and its subdomains with a leading dot; the bound host is allowed', () => {
    const policy = createOriginPolicy({ allowedHosts: ['my-box.lan', '.example.test'], boundHost: 'devbox.internal' })
    expect(policy.allowsHost('my-box.lan:4010')).toBe(true)
    expect(policy.allowsHost('api.example.test')).toBe(true)
    expect(policy.allowsHost('example.test')).toBe(true)
    expect(policy.allowsHost('devbox.internal:4010')).toBe(true)
    expect(policy.allowsHost('notexample.test')).toBe(false)
    expect(policy.allowsHost('other-box.lan')).toBe(false)
  })

  it('refuses malformed flag values with a one-line message', () => {
    expect(() => parseCorsOrigin('app.test')).toThrow(/--cors-origin must be an origin/)
    expect(() => parseCorsOrigin('http://app.test/path')).toThrow(/--cors-origin/)
    expect(() => parseAllowedHost('http://x')).toThrow(/--allowed-host must be a host name/)
    expect(parseAllowedHost('My-Box.LAN.')).toBe('my-box.lan')
  })

  it('answers the same for a Host asked again, also after a flood of made-up ones', () => {
    const policy = createOriginPolicy({ allowedHosts: ['my-box.lan'] })
    for (let round = 0; round < 2; round++) {
      expect(policy.allowsHost('127.0.0.1:4010')).toBe(true)
      expect(policy.allowsHost('evil.test:4010')).toBe(false)
      expect(policy.allowsHost('my-box.lan')).toBe(true)
      for (let i = 0; i < 1_000; i++) expect(policy.allowsHost(`rebind-${i}.evil.test`)).toBe(false)
    }
  })
})
