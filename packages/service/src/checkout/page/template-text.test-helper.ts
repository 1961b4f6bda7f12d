import type { TemplateResult } from 'lit-html'

/** A template's text as a buyer reads it: its strings and values, nested templates included, markup dropped. */
export function templateText(value: unknown): string {
  if (Array.isArray(value)) return value.map(templateText).join('')
  if (value && typeof value === 'object' && 'strings' in value) {
    const { strings, values } = value as TemplateResult
    return strings.map((part, index) => part + (index < values.length ? templateText(values[index]) : '')).join('')
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : ''
}
