import { html, LitElement, nothing, svg } from 'lit'

export type DayVolume = { day: string; payments: number; amounts: { currency: string; minor: string }[] }

const WIDTH = 720
const HEIGHT = 160

/**
 * Payments per day for the Payments page's filter, as bars: drawn in SVG (no script of a charting library to
 * load, no inline style to allow), with the same numbers in a table for screen readers. Loaded only once the
 * page has a list to chart.
 *
 * @csspart bars - The bars' group.
 */
export class TillVolumeChart extends LitElement {
  static override properties = { days: { attribute: false } }
  declare days: DayVolume[]

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.days = []
  }

  protected override createRenderRoot() {
    return this
  }

  override render() {
    const days = this.days
    if (days.length === 0) return nothing
    const most = Math.max(...days.map((day) => day.payments), 1)
    const step = WIDTH / days.length
    const bar = Math.max(1, step * 0.7)
    return html`<figure class="chart">
      <figcaption>Payments per day, ${days[0]?.day} to ${days.at(-1)?.day}</figcaption>
      <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-hidden="true" focusable="false" preserveAspectRatio="none">
        <g class="bars">
          ${days.map((day, index) => {
            const height = (day.payments / most) * (HEIGHT - 4)
            return svg`<rect x=${index * step + (step - bar) / 2} y=${HEIGHT - height} width=${bar} height=${height}><title>${day.day}: ${day.payments}</title></rect>`
          })}
        </g>
      </svg>
      <table class="visually-hidden">
        <caption>Payments per day</caption>
        <thead><tr><th scope="col">Day</th><th scope="col">Payments</th></tr></thead>
        <tbody>${days.map((day) => html`<tr><td>${day.day}</td><td>${day.payments}</td></tr>`)}</tbody>
      </table>
    </figure>`
  }
}
