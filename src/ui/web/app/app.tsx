/** @jsxImportSource preact */
/** The shell: header with navigation and the connection state, the current page, the dialog. */
import { useEffect } from 'preact/hooks'
import { adminToken, enterToken, forgetToken, probeAdminToken, setTokenPrompt } from './api.js'
import { ControlsPage } from './controls-page.js'
import { MessagesPage } from './messages-page.js'
import { RequestsPage } from './requests-page.js'
import { WebhooksPage } from './webhooks-page.js'
import { hrefOf, useRoute, type Page } from './router.js'
import { connection, startLive, useStore } from './state.js'
import { DialogHost, promptToken } from './widgets.js'
import { useWhoami } from './who.js'

const PAGES: { id: Page; label: string }[] = [
  { id: 'messages', label: 'Messages' },
  { id: 'requests', label: 'Requests' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'controls', label: 'Controls' },
]

export function App() {
  const route = useRoute()
  const live = useStore(connection)
  const who = useWhoami(live.state === 'live')
  useEffect(() => {
    setTokenPrompt(promptToken)
    void probeAdminToken()
    startLive()
  }, [])
  useEffect(() => {
    document.title = `sendbox · ${PAGES.find((p) => p.id === route.page)?.label}`
  }, [route.page])
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <h1>
          <span aria-hidden="true" class="logo">
            ✉
          </span>{' '}
          sendbox
        </h1>
        <nav aria-label="Pages">
          {PAGES.map((page) => (
            <a key={page.id} href={hrefOf(page.id)} aria-current={route.page === page.id ? 'page' : undefined}>
              {page.label}
            </a>
          ))}
        </nav>
        <LiveStatus state={live.state} detail={live.detail} />
        {who?.role === 'team' ? (
          <p class="who" data-testid="signed-in" title={`This team token sees ${who.accounts.join(', ')} only`}>
            Signed in as <strong>{who.name}</strong> · {who.accounts.join(', ')}
          </p>
        ) : null}
        <TokenButton locked={live.state === 'locked'} />
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'messages' ? (
          <MessagesPage openId={route.id} />
        ) : route.page === 'requests' ? (
          <RequestsPage openId={route.id} />
        ) : route.page === 'webhooks' ? (
          <WebhooksPage />
        ) : (
          <ControlsPage />
        )}
      </main>
      <DialogHost />
    </>
  )
}

function LiveStatus({ state, detail }: { state: string; detail: string }) {
  return (
    <p class={`live live-${state}`} role="status" title={detail}>
      <span class="dot" aria-hidden="true" />
      <span class="live-label">
        {state === 'live' ? 'Live' : state === 'down' ? 'Reconnecting' : state === 'locked' ? 'Locked' : 'Connecting'}
      </span>
      <span class="visually-hidden">{detail}</span>
    </p>
  )
}

/** Asks for the admin token when the stream is locked; offers to forget one that was given. */
function TokenButton({ locked }: { locked: boolean }) {
  if (locked) {
    return (
      <button type="button" class="small primary" onClick={() => void enterToken()}>
        Enter admin token
      </button>
    )
  }
  if (!adminToken()) return null
  const forget = () => {
    forgetToken()
    location.reload()
  }
  return (
    <button type="button" class="small" onClick={forget}>
      Forget token
    </button>
  )
}
