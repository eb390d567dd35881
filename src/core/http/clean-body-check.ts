import {
  getMetadataStorage,
  MetadataStorage,
  ValidationArguments,
  ValidationTypes,
  ValidatorOptions,
} from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type ConstraintMetadata = ReturnType<MetadataStorage['getTargetValidatorConstraints']>[number];

/** One rule of a property: the metadata and the constraints class-validator runs for it. */
interface Rule {
  metadata: ValidationMetadata;
  constraints: ConstraintMetadata[];
}

/** A property as class-validator's executor walks it. */
interface PropertyPlan {
  property: string;
  /** `@IsOptional`, `@ValidateIf`: the property is checked only when every one holds. */
  conditions: ValidationMetadata[];
  /** `isDefined` rules first, then the others, as the executor runs them. */
  rules: Rule[];
}

/** A class's plan, or null when some rule is one this check does not follow (nested, async, each). */
type Plan = { properties: PropertyPlan[]; known: Record<string, unknown> } | null;

/** Plans by the metadata array they were made from: a new registration makes new arrays. */
const plans = new WeakMap<ValidationMetadata[], Plan>();

/**
 * Whether class-validator would find no error in `object` (a DTO instance) under `options`, found
 * without building its error tree: the same rules, conditions and constraint instances, called
 * with the same arguments, in a single pass with no allocation per property. `true` only when
 * every rule passes; `false` means "ask class-validator" (it found a failing rule, or the class,
 * the options or a value take a path this check does not follow), so class-validator alone ever
 * writes an error. A body that passes is the common case, and class-validator's executor spends
 * most of its work on the error objects it builds for every property and then discards.
 */
export function passesValidationCleanly(object: object, options: ValidatorOptions | undefined): boolean {
  if (
    options?.groups?.length ||
    options?.skipMissingProperties ||
    options?.skipNullProperties ||
    options?.skipUndefinedProperties ||
    options?.always ||
    options?.strictGroups
  ) {
    return false;
  }
  const plan = planFor(object.constructor);
  if (!plan) {
    return false;
  }
  if (options?.whitelist && !onlyKnownKeys(object, plan.known)) {
    return false;
  }
  for (const property of plan.properties) {
    if (!propertyPasses(object, property)) {
      return false;
    }
  }
  return true;
}

function onlyKnownKeys(object: object, known: Record<string, unknown>): boolean {
  for (const key in object) {
    if (Object.prototype.hasOwnProperty.call(object, key) && known[key] !== true) {
      return false;
    }
  }
  return true;
}

function propertyPasses(object: object, plan: PropertyPlan): boolean {
  const value = (object as Record<string, unknown>)[plan.property];
  // Every condition is evaluated, as class-validator does, before the property is skipped.
  let checked = true;
  for (const condition of plan.conditions) {
    checked =
      Boolean((condition.constraints[0] as (o: object, v: unknown) => unknown)(object, value)) && checked;
  }
  if (!checked) {
    return true;
  }
  for (const { metadata, constraints } of plan.rules) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) {
      continue;
    }
    if (metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      return false;
    }
    const args: ValidationArguments = {
      targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    };
    for (const constraint of constraints) {
      if (constraint.instance.validate(value, args) !== true) {
        // false, a falsy value or a promise: class-validator decides
        return false;
      }
    }
  }
  return true;
}

function planFor(target: unknown): Plan {
  const storage = getMetadataStorage();
  // The executor's own look-up (no schema, no groups), remembered by validation-metadata-cache.
  const metadatas = storage.getTargetValidationMetadatas(
    target as () => void,
    undefined as unknown as string,
    false,
    false,
  );
  let plan = plans.get(metadatas);
  if (plan === undefined) {
    plan = makePlan(storage, metadatas);
    plans.set(metadatas, plan);
  }
  return plan;
}

function makePlan(storage: MetadataStorage, metadatas: ValidationMetadata[]): Plan {
  if (metadatas.length === 0) {
    return null; // forbidUnknownValues: class-validator answers with its own error
  }
  const grouped = storage.groupByPropertyName(metadatas);
  const properties: PropertyPlan[] = [];
  const known: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const property of Object.keys(grouped)) {
    const group = grouped[property];
    if (group.length > 0) {
      known[property] = true;
    }
    const conditions = group.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
    const defined = group.filter((m) => m.type === ValidationTypes.IS_DEFINED);
    const custom = group.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION);
    const followed = conditions.length + defined.length + custom.length;
    const whitelisted = group.filter((m) => m.type === ValidationTypes.WHITELIST).length;
    if (followed + whitelisted !== group.length) {
      return null; // nested or promise validation
    }
    const rules = [...defined, ...custom].map((metadata) => ({
      metadata,
      constraints: storage.getTargetValidatorConstraints(metadata.constraintCls),
    }));
    if (rules.some((r) => r.constraints.some((c) => c.async))) {
      return null;
    }
    properties.push({ property, conditions, rules });
  }
  return { properties, known };
}
