/** `{key: value}` when there is a value, `{}` otherwise: stored definitions carry no empty fields. */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
