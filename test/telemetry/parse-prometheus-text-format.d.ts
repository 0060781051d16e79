// The package ships no types: what it returns (prom2json's shape), as far as the tests read it.
declare module 'parse-prometheus-text-format' {
  export interface Sample {
    labels?: Record<string, string>
    /** Counters and gauges. */
    value?: string
    /** Histograms. */
    count?: string
    sum?: string
    buckets?: Record<string, string>
  }
  export interface Family {
    name: string
    help: string
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    metrics: Sample[]
  }
  export default function parsePrometheusTextFormat (text: string): Family[]
}
