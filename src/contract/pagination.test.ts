import { describe, expect, it } from 'vitest'
import { pageJson, toPage } from './pagination.js'

describe('pageJson', () => {
  it('is JSON.stringify of toPage, for items given as JSON text', () => {
    const items = [
      { id: 'a', n: 1, s: 'x"y\\z\u2028' },
      { nested: { list: [1, null, 'two'] } },
      'a string',
      7,
      null,
      [],
    ]
    for (let count = 0; count <= items.length; count++) {
      const slice = items.slice(0, count)
      for (const [page, limit, total] of [
        [1, 20, count],
        [3, 2, 11],
        [1, 1, 0],
        [100, 7, 5],
      ]) {
        expect(
          pageJson(
            slice.map((item) => JSON.stringify(item)),
            page,
            limit,
            total,
          ),
        ).toBe(JSON.stringify(toPage(slice, page, limit, total)))
      }
    }
  })
})
