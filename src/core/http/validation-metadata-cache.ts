import { getMetadataStorage, MetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Registration = 'addValidationSchema' | 'addValidationMetadata' | 'addConstraintMetadata';
type Storage = Omit<MetadataStorage, Registration> & Record<Registration, (...args: unknown[]) => void>;

const installed = new WeakSet<object>();

/**
 * Remembers class-validator's metadata look-ups. Its storage recomputes a class's rules on every
 * call (filters, and an `instanceof` against every class that has rules, hundreds here), and a
 * request body asks several times per object: Nest's ValidationPipe, class-validator's executor
 * and ServiceValidationPipe's own array check. The rules only change when a decorator or schema
 * registers more, which clears everything remembered. Callers read the arrays they get, never
 * change them (class-validator and Nest included). Requests that name validation groups are not
 * remembered (none do here).
 */
export function installValidationMetadataCache(): void {
  const storage = getMetadataStorage() as Storage;
  if (installed.has(storage)) {
    return;
  }
  installed.add(storage);
  let byTarget = new Map<object | string, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  const forget = () => {
    byTarget = new Map();
    grouped = new WeakMap();
  };
  for (const name of ['addValidationSchema', 'addValidationMetadata', 'addConstraintMetadata'] as const) {
    const add = storage[name].bind(storage);
    storage[name] = (...args: unknown[]) => {
      forget();
      add(...args);
    };
  }

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups !== undefined && groups.length > 0) {
      return lookUp(target, schema, always, strictGroups, groups);
    }
    const key = `${String(schema)}|${always}|${strictGroups}`;
    let entries = byTarget.get(target);
    if (!entries) {
      entries = new Map();
      byTarget.set(target, entries);
    }
    let metadatas = entries.get(key);
    if (!metadatas) {
      metadatas = lookUp(target, schema, always, strictGroups, groups);
      entries.set(key, metadatas);
      grouped.set(metadatas, group(metadatas));
    }
    return metadatas;
  };

  storage.groupByPropertyName = (metadatas) => grouped.get(metadatas) ?? group(metadatas);
}
