// Types for checking a dashboard's JSON against @grafana/schema.
import type { DataQuery } from '@grafana/schema';

// Lit turns the schema's TypeScript enums into the string (or number)
// literals they stand for, as they appear in JSON: LegendDisplayMode
// becomes 'list' | 'table' | 'hidden'. Everything else is kept, so an
// unknown field, a missing required one or a wrong value is still an error.
export type Lit<T> = T extends string
  ? `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer U>
      ? Array<Lit<U>>
      : T extends object
        ? { [K in keyof T]: Lit<T[K]> }
        : T;

// PromQuery is a Prometheus panel target: the schema's DataQuery plus the
// fields of Grafana's Prometheus data source query (its plugin's own
// types are not part of @grafana/schema).
export interface PromQuery extends DataQuery {
  expr: string;
  legendFormat?: string;
  instant?: boolean;
  range?: boolean;
  format?: 'time_series' | 'table' | 'heatmap';
  interval?: string;
  editorMode?: 'code' | 'builder';
  exemplar?: boolean;
}
