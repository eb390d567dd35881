/** Types of the spec's tables as transcribed in spec-tables.ts (the transcription rules are there). */

export type SpecType =
  'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'date' | 'date-time' | 'uuid';

export interface SpecField {
  type?: SpecType;
  nullable?: boolean;
  /** The spec allows null without saying where ("some nullable", "integer or null" of a key that may always be set). */
  maybeNull?: boolean;
  required?: boolean;
  enum?: readonly (string | number)[];
  values?: readonly string[];
  /** Array items: their type and values. */
  items?: { type: SpecType; enum?: readonly string[] };
}

export interface SpecTable {
  /** The spec's section. */
  title: string;
  /** The components.schemas entry that publishes it. */
  schema: string;
  fields: Record<string, SpecField>;
}

export interface SpecParameter extends SpecField {
  in: 'query' | 'path';
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean;
}

export interface SpecOperation {
  title: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  parameters: Record<string, SpecParameter>;
  /** The 2xx answer: a component, a bare array of one, or a list envelope of one. */
  response?: { schema: string } | { arrayOf: string } | { listOf: string };
  /** Request body fields (only where the spec gives them). */
  body?: { schema: string; fields: Record<string, SpecField> };
}
