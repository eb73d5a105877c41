// ANSI text (what `tmux capture-pane -e -p` prints: text and SGR colour sequences) as an HTML page
// that draws it as a terminal window, for scripts/docs-shots.mjs. SGR: reset, bold, dim, italic,
// underline, inverse, the 16 colours, 256 colours and 24-bit colours; other escapes are dropped.

/** A dark terminal theme (VS Code's): the 16 ANSI colours, then the default foreground and background. */
const THEME = [
  '#000000',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#ffffff',
]
const FG = '#cccccc'
const BG = '#1e1e1e'

/** xterm's 256-colour palette: the 16 above, a 6×6×6 cube, then 24 greys. */
function palette(n) {
  if (n < 16) return THEME[n]
  if (n < 232) {
    const level = (v) => (v === 0 ? 0 : 55 + v * 40)
    const i = n - 16
    return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`
  }
  const grey = 8 + (n - 232) * 10
  return `rgb(${grey},${grey},${grey})`
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Applies one SGR sequence's parameters to the state. */
function applySgr(state, params) {
  const codes = params === '' ? [0] : params.split(/[;:]/).map(Number)
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]
    if (code === 0)
      Object.assign(state, {
        fg: undefined,
        bg: undefined,
        bold: false,
        dim: false,
        italic: false,
        underline: false,
        inverse: false,
      })
    else if (code === 1) state.bold = true
    else if (code === 2) state.dim = true
    else if (code === 3) state.italic = true
    else if (code === 4) state.underline = true
    else if (code === 7) state.inverse = true
    else if (code === 22) state.bold = state.dim = false
    else if (code === 23) state.italic = false
    else if (code === 24) state.underline = false
    else if (code === 27) state.inverse = false
    else if (code >= 30 && code <= 37) state.fg = THEME[code - 30]
    else if (code >= 90 && code <= 97) state.fg = THEME[code - 82]
    else if (code >= 40 && code <= 47) state.bg = THEME[code - 40]
    else if (code >= 100 && code <= 107) state.bg = THEME[code - 92]
    else if (code === 39) state.fg = undefined
    else if (code === 49) state.bg = undefined
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg'
      if (codes[i + 1] === 5) ((state[key] = palette(codes[i + 2])), (i += 2))
      else if (codes[i + 1] === 2) ((state[key] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`), (i += 4))
    }
  }
}

/** The inline style of a run of text in this state. */
function styleOf(state) {
  let fg = state.fg ?? FG
  let bg = state.bg
  if (state.inverse) [fg, bg] = [bg ?? BG, fg]
  const style = [`color:${fg}`]
  if (bg) style.push(`background:${bg}`)
  if (state.bold) style.push('font-weight:bold')
  if (state.dim) style.push('opacity:0.6')
  if (state.italic) style.push('font-style:italic')
  if (state.underline) style.push('text-decoration:underline')
  return style.join(';')
}

/** The ANSI text as HTML spans, one line per line. */
export function ansiLines(ansi) {
  const state = {}
  applySgr(state, '0')
  let html = ''
  const tokens = /\x1b\[([0-9;:]*)m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9;?]*[A-Za-z]|\x1b.|([^\x1b]+)/g
  for (const match of ansi.replace(/\n+$/, '').matchAll(tokens)) {
    if (match[1] !== undefined) applySgr(state, match[1])
    else if (match[2] !== undefined)
      html += match[2]
        .split('\n')
        .map((part) => (part ? `<span style="${styleOf(state)}">${escapeHtml(part)}</span>` : ''))
        .join('\n')
  }
  return html
}

/** A whole page: the text in a terminal window with a title bar. */
export function ansiToHtml(ansi, { title = 'terminal', columns = 160 } = {}) {
  return `<!doctype html><meta charset="utf-8"><style>
  body { margin: 0; padding: 24px; background: #e5e7eb; }
  #terminal { display: inline-block; border-radius: 10px; overflow: hidden; box-shadow: 0 12px 32px rgba(0,0,0,.28); background: ${BG}; }
  .bar { height: 30px; background: #2b2f36; display: flex; align-items: center; padding: 0 12px; gap: 8px; font: 13px system-ui, sans-serif; color: #9aa0a6; }
  .dot { width: 12px; height: 12px; border-radius: 50%; } .title { flex: 1; text-align: center; margin-right: 60px; }
  pre { margin: 0; padding: 12px 14px 14px; width: ${columns}ch; font: 14px/1.3 'DejaVu Sans Mono', 'Liberation Mono', monospace; color: ${FG}; white-space: pre; }
</style><div id="terminal"><div class="bar"><span class="dot" style="background:#ff5f57"></span><span class="dot" style="background:#febc2e"></span><span class="dot" style="background:#28c840"></span><span class="title">${escapeHtml(title)}</span></div><pre>${ansiLines(ansi)}</pre></div>`
}
