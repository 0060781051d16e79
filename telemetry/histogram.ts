/**
 * A Prometheus histogram by label values, for what is observed on every request. prom-client's own
 * checks and hashes its labels at each observation, even through a child bound to them, which a
 * CPU profile of a GET found among its costs (docs/benchmarks.md, "Metrics and traces"). Here
 * each set of label values has its own counts, found once and kept, and an observation is a walk
 * of the bounds and two additions. prom-client's registry renders it, as it renders its own: this
 * object has the shape its registry reads (`get`, `getForPromString`, `reset`).
 */
export class FastHistogram<L extends string> {
  readonly name: string
  readonly help: string
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  readonly #labelNames: readonly L[]
  readonly #bounds: readonly number[]
  readonly #series = new Map<string, { labels: Record<string, string>, counts: number[], sum: number }>()

  constructor (name: string, help: string, labelNames: readonly L[], bounds: readonly number[]) {
    this.name = name
    this.help = help
    this.#labelNames = labelNames
    this.#bounds = bounds
  }

  /** What observes a value for these label values, in the order of the label names. */
  child (...values: string[]): (value: number) => void {
    const key = values.join('\u0000')
    let series = this.#series.get(key)
    if (series === undefined) {
      const labels = Object.fromEntries(this.#labelNames.map((name, i) => [name, values[i] as string]))
      this.#series.set(key, series = { labels, counts: new Array<number>(this.#bounds.length + 1).fill(0), sum: 0 })
    }
    const { counts } = series
    const bounds = this.#bounds
    const kept = series
    return value => {
      let i = 0
      while (i < bounds.length && value > (bounds[i] as number)) i++
      counts[i] = (counts[i] as number) + 1
      kept.sum += value
    }
  }

  /** The series as prom-client's registry writes them: cumulative buckets, then the sum and the count. */
  async getForPromString (): Promise<{ name: string, help: string, type: string, aggregator: string, values: unknown[] }> {
    const values: unknown[] = []
    for (const { labels, counts, sum } of this.#series.values()) {
      let cumulative = 0
      this.#bounds.forEach((bound, i) => {
        cumulative += counts[i] as number
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` })
      })
      cumulative += counts.at(-1) as number
      values.push({ labels: { ...labels, le: '+Inf' }, value: cumulative, metricName: `${this.name}_bucket` })
      values.push({ labels, value: sum, metricName: `${this.name}_sum` })
      values.push({ labels, value: cumulative, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  async get (): ReturnType<FastHistogram<L>['getForPromString']> {
    return this.getForPromString()
  }

  reset (): void {
    this.#series.clear()
  }
}
