// The chart's chunk: loaded by the Payments page once it has data to chart, and defined here, apart from its class.
import { TillVolumeChart } from './volume-chart.ts'

if (!customElements.get('till-volume-chart')) customElements.define('till-volume-chart', TillVolumeChart)
