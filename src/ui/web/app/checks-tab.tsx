/** @jsxImportSource preact */
/**
 * The Checks tab of an SMS or a WhatsApp message: their views have no tabs of their own, so this
 * puts "Message" and "Checks" above them. An email has a Checks tab among its own (email.tsx),
 * where a check's line opens the Source tab.
 */
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { ChecksPanel } from './checks-panel.js'
import type { CapturedMessage } from './types.js'
import { Tabs } from './widgets.js'

type MessageTab = 'message' | 'checks'

export function WithChecks({ message, children }: { message: CapturedMessage; children: ComponentChildren }) {
  const [tab, setTab] = useState<MessageTab>('message')
  if (message.channel === 'email') return <>{children}</>
  const tabs: { id: MessageTab; label: string }[] = [
    { id: 'message', label: 'Message' },
    { id: 'checks', label: 'Checks' },
  ]
  return (
    <>
      <Tabs<MessageTab> label="Message views" idPrefix="message" tabs={tabs} current={tab} onChange={setTab} />
      <div id="message-panel" role="tabpanel" aria-labelledby={`message-tab-${tab}`} class="panel">
        {tab === 'message' ? children : <ChecksPanel messageId={message.message_id} channel={message.channel} />}
      </div>
    </>
  )
}
