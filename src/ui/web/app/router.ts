/** Hash routes (`#/messages/msg_…`, `#/requests/12`, `#/controls`): the page is one static file. */
import { useEffect, useState } from 'preact/hooks'

export type Page = 'messages' | 'requests' | 'webhooks' | 'controls'
export interface Route {
  page: Page
  id: string | null
}

export function parseRoute(hash: string): Route {
  const [, page = '', id = ''] = hash.replace(/^#/, '').split('/')
  const known: Page = page === 'requests' || page === 'webhooks' || page === 'controls' ? page : 'messages'
  return { page: known, id: id ? decodeURIComponent(id) : null }
}

export function hrefOf(page: Page, id?: string | null): string {
  return `#/${page}${id ? `/${encodeURIComponent(id)}` : ''}`
}

export function navigate(page: Page, id?: string | null): void {
  location.hash = hrefOf(page, id)
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash))
    addEventListener('hashchange', update)
    return () => removeEventListener('hashchange', update)
  }, [])
  return route
}

/** True when the viewport is phone-sized (one pane at a time). */
export function useNarrow(): boolean {
  const query = '(max-width: 760px)'
  const [narrow, setNarrow] = useState(() => matchMedia(query).matches)
  useEffect(() => {
    const list = matchMedia(query)
    const update = () => setNarrow(list.matches)
    list.addEventListener('change', update)
    return () => list.removeEventListener('change', update)
  }, [])
  return narrow
}
