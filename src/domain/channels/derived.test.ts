import { inspect } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { copyFields, defineDerived, underived, type Derived } from './derived.js'

const DERIVED: Derived = {
  text: 'Your code is 482913',
  links: ['https://shop.test/a'],
  images: ['https://shop.test/logo.png'],
  codes: ['482913'],
}

/** What the derivation is computed from (an email's `email` object, in the outbox). */
const INPUT = { subject: 'Hi', html: '<p>Your code is 482913</p>' }

function message(compute = vi.fn((_input: typeof INPUT) => DERIVED), eager = false) {
  const target: Record<string, unknown> = { message_id: 'msg_1', channel: 'email' }
  defineDerived(target, compute, INPUT, eager)
  target.email = INPUT
  return { target, compute }
}

describe('derived fields (text, links, codes)', () => {
  it('are computed once, on first read of any of them, and read as plain values', () => {
    const { target, compute } = message()
    expect(compute).not.toHaveBeenCalled()
    expect(underived(target)).toBe(true)
    expect(target.codes).toEqual(['482913'])
    expect(target.text).toBe('Your code is 482913')
    expect(target.links).toEqual(['https://shop.test/a'])
    expect(compute).toHaveBeenCalledTimes(1)
    expect(compute).toHaveBeenCalledWith(INPUT)
    expect(underived(target)).toBe(false)
  })

  it('keep their place in the field order for JSON, spread, structuredClone and inspect', () => {
    const { target } = message()
    const keys = ['message_id', 'channel', 'text', 'links', 'images', 'codes', 'email']
    expect(Object.keys(JSON.parse(JSON.stringify(target)))).toEqual(keys)
    expect(JSON.parse(JSON.stringify(target)).codes).toEqual(['482913'])
    expect({ ...target }).toEqual({ message_id: 'msg_1', channel: 'email', ...DERIVED, email: target.email })
    expect(structuredClone(target)).toEqual({ ...target })
    const shown = inspect(target)
    expect(shown).toContain("text: 'Your code is 482913'")
    expect(shown).not.toContain('Getter')
  })

  it('are computed at once when eager', () => {
    const compute = vi.fn(() => DERIVED)
    const { target } = message(compute, true)
    expect(compute).toHaveBeenCalledTimes(1)
    expect(underived(target)).toBe(false)
  })

  it('stay underived in a copy, which shares the one computation', () => {
    const { target, compute } = message()
    const copy = copyFields<Record<string, unknown>>(target)
    expect(Object.keys(copy)).toEqual(['message_id', 'channel', 'text', 'links', 'images', 'codes', 'email'])
    expect(compute).not.toHaveBeenCalled()
    expect(copy.text).toBe(DERIVED.text)
    expect(target.codes).toEqual(DERIVED.codes)
    expect(compute).toHaveBeenCalledTimes(1)
    // A copy of a plain object is a plain copy.
    expect(copyFields({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 })
  })

  it('can be assigned, as fields of a plain object can', () => {
    const { target, compute } = message()
    const sibling = copyFields<Record<string, unknown>>(target)
    target.text = 'replaced'
    expect(target.text).toBe('replaced')
    expect(compute).not.toHaveBeenCalled()
    const copy = copyFields<Record<string, unknown>>(target)
    expect(copy.text).toBe('replaced')
    expect(copy.codes).toEqual(DERIVED.codes)
    // A copy made before the assignment still derives its own text.
    expect(copyFields<Record<string, unknown>>(sibling).text).toBe(DERIVED.text)
    expect(compute).toHaveBeenCalledTimes(1)
  })

  it('leave no trace of their bookkeeping in keys, equality or copies', () => {
    const { target } = message()
    const plain = JSON.parse(JSON.stringify(target))
    expect(Object.keys(target)).toEqual(Object.keys(plain))
    expect(target).toEqual(plain)
    expect(plain).toStrictEqual({ ...target })
    expect(Object.getOwnPropertySymbols({ ...target })).toEqual([])
  })

  it('read as empty, once, when the derivation fails, instead of failing every read', () => {
    const compute = vi.fn((): Derived => {
      throw new Error('boom')
    })
    const { target } = message(compute)
    expect(JSON.parse(JSON.stringify(target))).toMatchObject({ text: '', links: [], images: [], codes: [] })
    expect(target.codes).toEqual([])
    expect(compute).toHaveBeenCalledTimes(1)
  })
})

describe('storedJson and reviveDerived (the --data store)', () => {
  it('writes underived fields as null without computing them, and revives them lazily in their place', async () => {
    const { storedJson, reviveDerived } = await import('./derived.js')
    let computed = 0
    const compute = () => {
      computed++
      return { text: 'hello 123456', links: ['https://a.test/'], images: [], codes: ['123456'] }
    }
    const message: Record<string, unknown> = { id: 'm1' }
    defineDerived(message, compute, undefined)
    message.after = 1
    const json = storedJson(message)
    expect(computed).toBe(0)
    expect(JSON.parse(json)).toEqual({ id: 'm1', text: null, links: null, images: null, codes: null, after: 1 })
    const revived = reviveDerived(JSON.parse(json) as Record<string, unknown>, compute, undefined)
    expect(computed).toBe(0)
    expect(Object.keys(revived)).toEqual(['id', 'text', 'links', 'images', 'codes', 'after'])
    expect(revived.codes).toEqual(['123456'])
    expect(computed).toBe(1)
    expect(JSON.parse(JSON.stringify(revived))).toEqual({
      id: 'm1',
      text: 'hello 123456',
      links: ['https://a.test/'],
      images: [],
      codes: ['123456'],
      after: 1,
    })
    // Derived already: written whole, read back as it is.
    expect(JSON.parse(storedJson(revived)).text).toBe('hello 123456')
    expect(reviveDerived(JSON.parse(storedJson(revived)) as Record<string, unknown>, compute, undefined).text).toBe(
      'hello 123456',
    )
  })
})

describe('derived links read alone', () => {
  function withLinks() {
    const all = vi.fn((_input: typeof INPUT) => ({
      ...DERIVED,
      links: [...DERIVED.links],
      images: [...DERIVED.images],
    }))
    const links = vi.fn((_input: typeof INPUT) => ({ links: [...DERIVED.links], images: [...DERIVED.images] }))
    const target: Record<string, unknown> = { message_id: 'msg_1' }
    defineDerived(target, Object.assign(all, { links }), INPUT)
    return { target, all, links }
  }

  it('derive only the links and images until another field is read', () => {
    const { target, all, links } = withLinks()
    expect(target.links).toEqual(DERIVED.links)
    expect(target.images).toEqual(DERIVED.images)
    expect(links).toHaveBeenCalledTimes(1)
    expect(all).not.toHaveBeenCalled()
    expect(underived(target)).toBe(true)
    expect(target.codes).toEqual(DERIVED.codes)
    expect(all).toHaveBeenCalledTimes(1)
    expect(underived(target)).toBe(false)
  })

  it('keep the very lists already handed out once everything is derived', () => {
    const { target } = withLinks()
    const links = target.links
    const images = target.images
    expect(target.text).toBe(DERIVED.text)
    expect(target.links).toBe(links)
    expect(target.images).toBe(images)
    expect(JSON.parse(JSON.stringify(target))).toEqual({ message_id: 'msg_1', ...DERIVED })
  })

  it('fall back to the whole derivation when the links alone throw', () => {
    const target: Record<string, unknown> = {}
    const all = vi.fn(() => DERIVED)
    defineDerived(
      target,
      Object.assign(all, {
        links: () => {
          throw new Error('boom')
        },
      }),
      INPUT,
    )
    expect(target.links).toEqual(DERIVED.links)
    expect(all).toHaveBeenCalledTimes(1)
  })
})
