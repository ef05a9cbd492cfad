/**
 * Spreadsheet columns derived from a JSON Schema: each column is named by the JSON field it fills
 * (`EventTime`, `ProductInstances.LotSerial`, `DestinationLocation.Id`), so the templates, the notes
 * and the import read the same schema the JSON API validates with and cannot disagree with it.
 * One level of lists: a column inside an array of objects (`ProductInstances.Quantity`) fills one element
 * per row, and the rows of one record (the same key column value) form its list.
 */

/** A JSON Schema as plain data: only the keywords read here. */
export interface SchemaNode {
  type?: string | readonly string[];
  properties?: Readonly<Record<string, unknown>>;
  required?: readonly string[];
  items?: unknown;
  enum?: readonly unknown[];
  description?: string;
  example?: unknown;
}

export type CellType = 'string' | 'number' | 'integer' | 'boolean';

export interface Column {
  /** The JSON path, dotted: `ProductInstances.LotSerial`. */
  name: string;
  path: readonly string[];
  /** The array this column fills one element of per row (`ProductInstances`), or null for a field of the record itself. */
  list: string | null;
  /** A list of plain values (`DocumentIds`): each row's cell is one element. */
  scalarList: boolean;
  type: CellType;
  /** Required whenever its record (or, in a list, its element) is there. */
  required: boolean;
  allowed: readonly (string | number)[] | null;
  description: string;
  /** The schema's own example, for a template row. */
  example: string | number | null;
}

const asNode = (value: unknown): SchemaNode | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : null;

const typesOf = (node: SchemaNode): string[] =>
  (node.type === undefined ? [] : typeof node.type === 'string' ? [node.type] : [...node.type]).filter(
    (t) => t !== 'null',
  );

const cellTypeOf = (node: SchemaNode): CellType | null => {
  const types = typesOf(node);
  if (!types.length && node.enum) return node.enum.every((v) => typeof v === 'number') ? 'number' : 'string';
  for (const type of ['string', 'integer', 'number', 'boolean'] as const) if (types.includes(type)) return type;
  return null;
};

const exampleOf = (node: SchemaNode): string | number | null =>
  typeof node.example === 'string' || typeof node.example === 'number' ? node.example : null;

/**
 * The columns of one record of `schema` (an object schema), in the schema's property order. Objects
 * without properties (free-form ones) and lists inside lists have no columns: a spreadsheet cannot say
 * them, and the template does not offer them. `skip` leaves out the whole subtree under each name.
 */
export function columnsOf(schema: SchemaNode, options: { skip?: readonly string[] } = {}): Column[] {
  const skip = new Set(options.skip ?? []);
  const columns: Column[] = [];
  const walk = (node: SchemaNode, path: string[], list: string | null, required: boolean): void => {
    const properties = node.properties ?? {};
    const requiredHere = new Set(node.required ?? []);
    for (const [name, value] of Object.entries(properties)) {
      const child = asNode(value);
      if (!child || skip.has(name)) continue;
      const childPath = [...path, name];
      const childRequired = required && requiredHere.has(name);
      const types = typesOf(child);
      if (types.includes('array')) {
        if (list) continue;
        const items = asNode(child.items);
        if (!items) continue;
        const itemType = cellTypeOf(items);
        if (itemType) {
          columns.push(column(childPath, childPath.join('.'), true, itemType, false, items, child));
        } else if (items.properties) walk(items, childPath, childPath.join('.'), childRequired);
        continue;
      }
      if (child.properties) {
        walk(child, childPath, list, childRequired);
        continue;
      }
      const type = cellTypeOf(child);
      if (type) columns.push(column(childPath, list, false, type, childRequired, child, child));
    }
  };
  const column = (
    path: string[],
    list: string | null,
    scalarList: boolean,
    type: CellType,
    required: boolean,
    leaf: SchemaNode,
    described: SchemaNode,
  ): Column => ({
    name: path.join('.'),
    path,
    list,
    scalarList,
    type,
    required,
    allowed: leaf.enum
      ? leaf.enum.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      : null,
    description: described.description ?? leaf.description ?? '',
    example: exampleOf(leaf),
  });
  walk(schema, [], null, true);
  // A column inside a list is required when its element is there; whether the list itself is required is said by its own columns' notes.
  return columns.map((c) => (c.list && !c.scalarList ? { ...c, required: requiredInList(schema, c) } : c));
}

/** A field of a list element is required when the element's schema requires it (and every object between). */
function requiredInList(schema: SchemaNode, column: Column): boolean {
  const listDepth = column.list!.split('.').length;
  let node: SchemaNode | null = schema;
  for (let i = 0; i < listDepth; i++) node = asNode(node?.properties?.[column.path[i]]);
  node = asNode(node?.items);
  for (let i = listDepth; i < column.path.length; i++) {
    if (!node?.required?.includes(column.path[i])) return false;
    node = asNode(node.properties?.[column.path[i]]);
  }
  return true;
}

/** Whether the list a column belongs to must have at least one element in every record. */
export function listRequired(schema: SchemaNode, list: string): boolean {
  let node: SchemaNode | null = schema;
  for (const name of list.split('.')) {
    if (!node?.required?.includes(name)) return false;
    node = asNode(node.properties?.[name]);
  }
  return true;
}

/** The value at a column's path in one example record (the first element of a list), as a cell shows it. */
export function cellOf(record: unknown, column: Column): string | number | null {
  let value: unknown = record;
  for (const name of column.path) {
    if (Array.isArray(value)) value = value[0];
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' || typeof value === 'number'
    ? value
    : typeof value === 'boolean'
      ? String(value)
      : null;
}
