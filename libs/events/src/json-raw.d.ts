// JSON.parse source access and JSON.rawJSON (V8 / Node 21+), not yet in TypeScript's lib.
interface RawJSON {
  readonly rawJSON: string;
}
interface JSON {
  rawJSON(text: string): RawJSON;
  isRawJSON(value: unknown): value is RawJSON;
  parse(
    text: string,
    reviver: (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown,
  ): unknown;
}

// String well-formedness (ES2024, Node 20+), not in the es2023 lib this project targets.
interface String {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
