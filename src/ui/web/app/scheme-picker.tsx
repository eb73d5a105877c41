/** @jsxImportSource preact */
/**
 * The email preview's colour scheme (issue 35, item 5): as the browser shows it, light, dark as
 * the email's own `prefers-color-scheme: dark` styles make it (Apple Mail, Outlook for Mac, iOS),
 * or forced dark as Gmail's apps and Outlook.com invert it. The server rewrites the preview for
 * the scheme (`/html?scheme=`): an iframe cannot be told to prefer another scheme than its browser.
 */
import { PREVIEW_SCHEMES, type PreviewScheme } from '../../../contract/preview.js'

export type { PreviewScheme }

const LABELS: Record<PreviewScheme, { label: string; title: string }> = {
  light: { label: 'Light', title: "As a client in light mode shows it: the email's dark styles off" },
  dark: {
    label: 'Dark',
    title:
      "As Apple Mail, Outlook for Mac and iOS show it in dark mode: the email's own prefers-color-scheme: dark styles",
  },
  'dark-forced': {
    label: 'Dark (forced)',
    title: "As Gmail's apps and Outlook.com show it in dark mode: colours inverted by the client, images kept",
  },
}

export function SchemePicker({
  scheme,
  onChange,
}: {
  scheme: PreviewScheme | null
  onChange: (scheme: PreviewScheme | null) => void
}) {
  return (
    <div role="group" aria-label="Colour scheme" class="segmented">
      <button
        type="button"
        aria-pressed={scheme === null}
        onClick={() => onChange(null)}
        title="As your browser shows it"
      >
        As sent
      </button>
      {PREVIEW_SCHEMES.map((id) => (
        <button
          key={id}
          type="button"
          aria-pressed={scheme === id}
          onClick={() => onChange(id)}
          title={LABELS[id].title}
        >
          {LABELS[id].label}
        </button>
      ))}
    </div>
  )
}
