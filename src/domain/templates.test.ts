import { describe, expect, it } from 'vitest'
import { placeholdersOf, renderedText, TemplateBook, TemplatesFileError } from './templates.js'

describe('placeholders', () => {
  it('reads named and positional ones, spaces allowed inside the braces', () => {
    expect(placeholdersOf('Hi {{name}}, code {{ 1 }}, {{name}} again')).toEqual(['name', '1', 'name'])
  })
  it('refuses any other syntax', () => {
    for (const text of ['{{}}', '{{a b}}', '{{0}}', '{{ a-b }}', 'open {{name', 'close name}}'])
      expect(() => placeholdersOf(text), text).toThrow()
  })
})

describe('TemplateBook', () => {
  const book = TemplateBook.from(
    {
      templates: [
        {
          name: 'order_update',
          language: 'en',
          header: 'Order {{1}}',
          body: 'Hi {{name}}',
          footer: 'Bye',
          buttons: ['OK', { text: 'Track', url: 'https://x.test/{{1}}' }],
        },
      ],
    },
    'file.json',
  )
  it('fills every part; the text is header, body, footer, buttons as lines', () => {
    const rendered = book.render('order_update', 'en', { 1: '42', name: 'Ana' })
    expect(renderedText(rendered)).toBe('Order 42\nHi Ana\nBye\n[OK]\n[Track] https://x.test/42')
  })
  it("names the closest templates and the template's languages", () => {
    expect(() => book.render('order_updates', 'en', {})).toThrow(/Closest known: order_update/)
    expect(() => book.render('order_update', 'pt_BR', {})).toThrow(/Its languages: en/)
  })
  it('refuses a bad file with one line naming the file, the template and the field', () => {
    expect(() =>
      TemplateBook.from({ templates: [{ name: 'x', language: 'en', body: 'x', header: 3 }] }, 'f.json'),
    ).toThrow(new TemplatesFileError('f.json: template "x" (en): `header` must be a string'))
    expect(() => TemplateBook.from({ nope: [] }, 'f.json')).toThrow(/f\.json: must hold/)
  })
})
