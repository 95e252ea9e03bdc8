/**
 * Names for named prepared statements (`pg`'s `{ name, text }`), so PostgreSQL parses and plans a
 * text once per connection instead of on every execution (Kysely sends each query unnamed). One
 * name per text for the whole process, so a connection never sees one name with two texts; past
 * `cap` texts the namer answers undefined and the statement runs unnamed, so a connection's
 * prepared statements stay bounded.
 */
export function statementNamer(prefix: string, cap: number): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < cap) {
      name = `${prefix}_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}
