import { describe, expect, it } from 'vitest'
import { keywordAction, OptOutStore } from './opt-outs.js'

describe('reply keywords', () => {
  it('opt out, opt in, or nothing: case-insensitive, trimmed, whole reply only', () => {
    for (const text of ['STOP', 'stop', ' Stop\n', 'STOPALL', 'unsubscribe', 'CANCEL', 'end', 'QUIT'])
      expect(keywordAction(text), text).toBe('opt_out')
    for (const text of ['START', 'unstop', ' yes ']) expect(keywordAction(text), text).toBe('opt_in')
    for (const text of ['HELP', 'stop it', 'STOP!', 'Yes please', '', 'S T O P'])
      expect(keywordAction(text), text).toBeNull()
  })
})

describe('OptOutStore', () => {
  it('keeps opt-outs per account, as plain copies', () => {
    const store = new OptOutStore()
    store.add({ account: 'a', number: '+14155550123', keyword: 'STOP', at: 't' })
    expect(store.get('a', '+14155550123')).toMatchObject({ keyword: 'STOP' })
    expect(store.get('b', '+14155550123')).toBeUndefined()
    const [listed] = store.list('a')
    listed.keyword = 'changed'
    expect(store.get('a', '+14155550123')!.keyword).toBe('STOP')
    expect(store.remove('a', '+14155550123')).toBe(true)
    expect(store.remove('a', '+14155550123')).toBe(false)
  })
})
