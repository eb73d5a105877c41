/** @jsxImportSource preact */
/** An SMS: a phone bubble split into its segments, codes marked, with its encoding and length. */
import { useMemo } from 'preact/hooks'
import { segmentSms } from '../../../../domain/sms-encoding.js'
import { safeText } from '../../../../domain/safe-text.js'
import { CodesList, markCodes } from '../message-parts.js'
import type { SmsMessage } from '../types.js'
import { JsonBlock, Shown } from '../widgets.js'

export function SmsView({ message }: { message: SmsMessage }) {
  const { sms } = message
  const segmented = useMemo(() => segmentSms(sms.text), [sms.text])
  const codes = message.codes
  const perPart =
    segmented.parts.length > 1 ? (segmented.encoding === 'GSM-7' ? 153 : 67) : segmented.encoding === 'GSM-7' ? 160 : 70
  return (
    <section class="sms-view">
      <div class="phone" aria-label="Phone preview">
        <div class="phone-head">{sms.from === null ? 'Sender not set' : <Shown text={sms.from} />}</div>
        <div
          dir="auto"
          class="bubble sms-bubble"
          aria-label={`SMS text in ${segmented.parts.length} segment${segmented.parts.length === 1 ? '' : 's'}`}
        >
          {segmented.parts.map((part, i) => (
            <span key={i} class={`segment seg-${i % 2}`} data-segment={i + 1}>
              {segmented.parts.length > 1 ? (
                <span class="segment-mark" aria-label={`segment ${i + 1}`}>
                  {i + 1}
                </span>
              ) : null}
              {markCodes(safeText(part), codes)}
            </span>
          ))}
        </div>
      </div>
      <dl class="meta sms-meta">
        <div>
          <dt>Sender</dt>
          <dd>{sms.from === null ? 'not set' : <Shown text={sms.from} />}</dd>
        </div>
        <div>
          <dt>Encoding</dt>
          <dd>{sms.encoding}</dd>
        </div>
        <div>
          <dt>Length</dt>
          <dd>
            {sms.characters} characters · {sms.units} {sms.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}
          </dd>
        </div>
        <div>
          <dt>Segments</dt>
          <dd data-testid="segment-count">
            {sms.segments} (up to {perPart} {sms.encoding === 'GSM-7' ? 'septets' : 'units'} each)
          </dd>
        </div>
      </dl>
      <CodesList codes={codes} />
      <details>
        <summary>Request</summary>
        <JsonBlock value={message.request} label="Request body" />
      </details>
    </section>
  )
}
