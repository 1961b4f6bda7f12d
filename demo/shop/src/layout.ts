import { showCount } from './cart-store.ts'
import './styles.css'

showCount()

/** Shows a page-level problem where the page's content would be. */
export function showProblem(where: Element, error: unknown): void {
  const p = document.createElement('p')
  p.className = 'problem'
  p.setAttribute('role', 'alert')
  p.textContent = `Something went wrong: ${error instanceof Error ? error.message : String(error)}`
  where.replaceChildren(p)
}
