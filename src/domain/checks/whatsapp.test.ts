import { describe, expect, it } from 'vitest'
import type { WhatsappMessage } from '../../contract/captured-message.js'
import { TemplateBook } from '../templates.js'
import { whatsappChecks } from './whatsapp.js'

const book = TemplateBook.from({
  templates: [
    {
      name: 'order_update',
      language: 'en',
      body: 'Hi {{name}}, your order {{order}} has shipped.',
      buttons: [{ text: 'Track', url: 'https://shop.example.com/track/{{order}}' }],
    },
    {
      name: 'link_button',
      language: 'en',
      body: 'Hi {{name}}',
      buttons: [{ text: 'Open', url: 'https://shop.example/{{link}}' }],
    },
  ],
})

function whatsapp(parameters: Record<string, string>, template?: string): WhatsappMessage {
  const rendered = template ? book.render(template, 'en', parameters) : undefined
  return {
    message_id: 'msg_1',
    direction: 'outbound',
    whatsapp: {
      template: template ?? 'any',
      language: 'en',
      parameters,
      preview: '',
      ...(rendered ? { rendered } : {}),
    },
  } as unknown as WhatsappMessage
}

const ids = (message: WhatsappMessage) => whatsappChecks(message).map((c) => c.id)

describe('WhatsApp checks', () => {
  it('flags a parameter with a line break, without templates, naming the parameter', () => {
    const [check, ...rest] = whatsappChecks(whatsapp({ name: 'Ana\nMaria' }))
    expect(rest).toEqual([])
    expect(check).toMatchObject({
      id: 'whatsapp.parameter-line-break',
      severity: 'error',
      category: 'template',
      parameter: 'name',
    })
    expect(check.message).toContain('132018')
  })

  it('flags tabs and more than four consecutive spaces, not four', () => {
    expect(ids(whatsapp({ a: 'x\ty', b: 'x     y', c: 'x    y' }))).toEqual([
      'whatsapp.parameter-tab',
      'whatsapp.parameter-spaces',
    ])
  })

  it('flags a filled body over 1024 characters (with templates) and a value over it (without)', () => {
    expect(ids(whatsapp({ name: 'a'.repeat(1020), order: '42' }, 'order_update'))).toEqual(['whatsapp.body-too-long'])
    expect(ids(whatsapp({ name: 'a'.repeat(1025) }))).toEqual(['whatsapp.body-too-long'])
    expect(ids(whatsapp({ name: 'a'.repeat(1000) }))).toEqual([])
  })

  it('flags a button URL that is not a valid https URL once filled', () => {
    // A template's button URL is https with its placeholder after the host (the templates file refuses others).
    const [check] = whatsappChecks(whatsapp({ name: 'Ana', link: 'a b' }, 'link_button'))
    expect(check).toMatchObject({ id: 'whatsapp.button-url' })
    expect(ids(whatsapp({ name: 'Ana', link: 'orders/42' }, 'link_button'))).toEqual([])
    expect(ids(whatsapp({ name: 'Ana', order: 'a b' }, 'order_update'))).toEqual(['whatsapp.button-url'])
  })

  it('warns on a URL-looking parameter the template does not link', () => {
    const [check] = whatsappChecks(whatsapp({ name: 'https://evil.example.com', order: '42' }, 'order_update'))
    expect(check).toMatchObject({ id: 'whatsapp.parameter-url', severity: 'warning', parameter: 'name' })
    expect(ids(whatsapp({ name: 'Ana', order: '42' }, 'order_update'))).toEqual([])
  })

  it('has nothing to say about an inbound reply', () => {
    expect(whatsappChecks({ ...whatsapp({ a: 'x\ny' }), direction: 'inbound' } as WhatsappMessage)).toEqual([])
  })
})
