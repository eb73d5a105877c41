import { describe, expect, it } from 'vitest'
import { utf8Length } from './utf8.js'

describe('utf8Length', () => {
  it('counts what TextEncoder writes, lone surrogates and pairs included', () => {
    const encoder = new TextEncoder()
    const pieces = ['a', 'é', '€', '👍', '\ud800', '\udc00', '\udbff\udfff', '\u07ff', '\u0800', '\uffff', '"', '\n']
    let seed = 3
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647
    for (let n = 0; n < 2_000; n++) {
      let text = ''
      const length = Math.floor(random() * 12)
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)]
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length)
    }
  })
})
