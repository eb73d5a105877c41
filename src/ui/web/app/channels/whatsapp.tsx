/** @jsxImportSource preact */
/** A WhatsApp message: the bubble as the recipient reads it, its template, language and parameters. */
import { safeText } from '../../../../domain/safe-text.js'
import { CodesList, WhatsappBubble } from '../message-parts.js'
import type { WhatsappMessage } from '../types.js'
import { JsonBlock, Shown } from '../widgets.js'

/** Which parameters the preview shows: flagged when their value is empty or nowhere in it. */
export function parameterPlacement(
  preview: string,
  parameters: Record<string, string>,
): { name: string; value: string; placed: boolean }[] {
  return Object.entries(parameters).map(([name, value]) => ({
    name,
    value,
    placed: value.trim() !== '' && preview.includes(value),
  }))
}

export function WhatsappView({ message }: { message: WhatsappMessage }) {
  const { whatsapp } = message
  const rows = parameterPlacement(whatsapp.preview, whatsapp.parameters)
  const values = rows.filter((r) => r.placed).map((r) => r.value)
  return (
    <section class="whatsapp-view">
      <WhatsappBubble message={message} values={values.map(safeText)} />
      <CodesList codes={message.codes} />
      <dl class="meta">
        <div>
          <dt>Template</dt>
          <dd>
            <code>
              <Shown text={whatsapp.template} />
            </code>
          </dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd>
            <Shown text={whatsapp.language} />
          </dd>
        </div>
      </dl>
      <table class="params">
        <caption>Parameters</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">In preview</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3}>No parameters.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.name} class={row.placed ? '' : 'unplaced'}>
                <th scope="row">
                  <code>
                    <Shown text={row.name} />
                  </code>
                </th>
                <td>{row.value === '' ? <em>(empty)</em> : <Shown text={row.value} />}</td>
                <td>{row.placed ? 'placed' : <strong class="flag">⚠ not placed in the preview</strong>}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <details>
        <summary>Request</summary>
        <JsonBlock value={message.request} label="Request body" />
      </details>
    </section>
  )
}
