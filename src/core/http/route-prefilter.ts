import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** What this needs of a layer of Express's router (the `router` package). */
export interface RouterLayer {
  route?: unknown;
  rawPath?: unknown;
  slash?: boolean;
  match(path: string): unknown;
}

/** A route path's literal segments by position, and how many segments it has. */
interface Shape {
  segments: number;
  literals: Array<readonly [number, string]>;
}

const LITERAL = /^[A-Za-z0-9._~-]+$/;
const PARAMETER = /^:[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The shape of a plain route path (`/v1/investors/:investor_id/orders`: literal segments and
 * whole-segment parameters), or null for any other (wildcards, optional parts, a parameter inside a
 * segment), which keeps its own matcher alone.
 */
export function shapeOf(path: string): Shape | null {
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts[0] !== '' || parts.length < 2) {
    return null;
  }
  const literals: Array<readonly [number, string]> = [];
  for (let i = 1; i < parts.length; i++) {
    if (LITERAL.test(parts[i])) {
      literals.push([i, parts[i].toLowerCase()] as const);
    } else if (!PARAMETER.test(parts[i])) {
      return null;
    }
  }
  return { segments: parts.length, literals };
}

let lastPath: string | undefined;
let lastSegments: string[] = [];

/** The request path's segments, lower-cased; the last path's are kept (every layer asks in turn). */
function segmentsOf(path: string): string[] {
  if (path !== lastPath) {
    lastSegments = path.toLowerCase().split('/');
    lastPath = path;
  }
  return lastSegments;
}

/** Whether a path may match a route of this shape: false only when its regular expression cannot. */
export function mayMatch(shape: Shape, path: string): boolean {
  const segments = segmentsOf(path);
  const count = segments.length;
  // A parameter never spans a `/`; one trailing `/` is allowed (non-strict routing).
  if (count !== shape.segments && !(count === shape.segments + 1 && segments[count - 1] === '')) {
    return false;
  }
  for (let i = 0; i < shape.literals.length; i++) {
    const [index, literal] = shape.literals[i];
    if (segments[index] !== literal) {
      return false;
    }
  }
  return true;
}

/**
 * Express finds a request's route by running each registered route's regular expression in turn
 * (about 140 here, in registration order), so a request to a route registered late pays for all the
 * earlier ones. Each plain route's matcher is put behind a comparison of the path's literal
 * segments, which rejects what the expression would reject without running it and hands every
 * other path to the expression, so what matches, its parameters and the order are unchanged.
 * The comparison is case-insensitive and allows the trailing `/`, as Express's default routing
 * is; with case-sensitive or strict routing it only lets more paths through to the expression.
 * Returns how many routes were given the comparison.
 */
export function prefilterRoutes(stack: RouterLayer[]): number {
  let prefiltered = 0;
  for (const layer of stack) {
    if (layer.route === undefined || typeof layer.rawPath !== 'string' || layer.slash) {
      continue;
    }
    const shape = shapeOf(layer.rawPath);
    if (!shape) {
      continue;
    }
    const match = layer.match.bind(layer);
    layer.match = (path: string) => (mayMatch(shape, path) ? match(path) : false);
    prefiltered++;
  }
  return prefiltered;
}

/** Applies prefilterRoutes to the HTTP app's router once Nest has registered every route. */
@Injectable()
export class RoutePrefilter implements OnApplicationBootstrap {
  /** How many routes were prefiltered (0 without an HTTP server). */
  prefiltered = 0;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.adapterHost.httpAdapter?.getInstance?.() as
      { router?: { stack?: RouterLayer[] } } | undefined;
    const stack = app?.router?.stack;
    if (Array.isArray(stack)) {
      this.prefiltered = prefilterRoutes(stack);
    }
  }
}
