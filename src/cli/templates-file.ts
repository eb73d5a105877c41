import { readFileSync } from 'node:fs'
import { TemplateBook, TemplatesFileError } from '../domain/templates.js'

/** Reads and checks a WhatsApp templates file (`--templates FILE`); a bad one is one line naming the file, the template and the field. */
export function loadTemplatesFile(path: string): TemplateBook {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new TemplatesFileError(
      `${path}: cannot read the templates file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    )
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new TemplatesFileError(`${path}: not valid JSON (${(error as Error).message})`)
  }
  return TemplateBook.from(data, path)
}
