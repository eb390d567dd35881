import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prefilterRoutes, RouterLayer, shapeOf } from 'src/core/http/route-prefilter';

describe('prefilterRoutes', () => {
  it.each([
    ['the service’s routes', () => SERVICE_ROUTES, 800],
    ['routes of other shapes', () => OTHER_ROUTES, 2000],
  ])(
    'matches every path exactly as %s’ own expressions do, parameters and refusals included',
    (_, routesOf, runs) => {
      const routes = routesOf();
      const plain = routerOf(routes);
      const prefiltered = routerOf(routes);
      expect(prefilterRoutes(prefiltered.stack)).toBe(routes.filter((p) => shapeOf(p) !== null).length);
      fc.assert(
        fc.property(requestPath(routes), (path) => {
          for (let i = 0; i < plain.stack.length; i++) {
            expect(outcome(prefiltered.stack[i], path)).toEqual(outcome(plain.stack[i], path));
          }
        }),
        { numRuns: runs },
      );
    },
  );

  it('runs a route’s expression only for paths whose literal segments fit it', () => {
    const router = routerOf(['/v1/investors/:investor_id/orders']);
    const [layer] = router.stack;
    let ran = 0;
    const expression = layer.match.bind(layer);
    layer.match = (path: string) => (ran++, expression(path));
    prefilterRoutes(router.stack);
    expect(layer.match('/v1/accounts/acc_1/orders')).toBe(false);
    expect(layer.match('/v1/investors/inv_1/orders/ord_1')).toBe(false);
    expect(ran).toBe(0);
    expect(layer.match('/V1/Investors/inv_1/ORDERS/')).toMatchObject({ params: { investor_id: 'inv_1' } });
    expect(ran).toBe(1);
  });

  it('leaves wildcards, optional parts and parameters inside a segment to their expressions', () => {
    for (const path of ['/files/*rest', '/v1/a{/:b}', '/v1/report/:id.pdf', '/', 'relative/:id']) {
      expect(shapeOf(path)).toBeNull();
    }
    expect(prefilterRoutes(routerOf(['/files/*rest', '/v1/a{/:b}']).stack)).toBe(0);
  });
});

/** A layer's match, or the error it throws (a parameter that is not valid percent-encoding). */
function outcome(layer: RouterLayer, path: string): unknown {
  try {
    return layer.match(path);
  } catch (err) {
    return { threw: String(err) };
  }
}

/** The service's route paths, from the committed OpenAPI document. */
const SERVICE_ROUTES = [
  ...[
    ...readFileSync(join(__dirname, '../../../openapi/openapi.yaml'), 'utf8').matchAll(/^ {2}(\/\S*):$/gm),
  ].map((m) => m[1].replace(/\{(\w+)\}/g, ':$1')),
];

/** Capitals in a literal, and the shapes left to their expressions. */
const OTHER_ROUTES = [
  '/v1/Reports/:report_id/PDF',
  '/files/*rest',
  '/v1/a{/:b}',
  '/v1/report/:id.pdf',
  '/v1/reports',
];

/** An Express 5 router (the `router` package) with one route per path, as Nest registers them. */
function routerOf(paths: string[]): { stack: RouterLayer[] } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package ships no types
  const Router = require('router') as new () => {
    stack: RouterLayer[];
    route(path: string): { all(fn: () => void): void };
  };
  const router = new Router();
  for (const path of paths) {
    router.route(path).all(() => undefined);
  }
  return router;
}

/**
 * Paths near the routes (parameters filled with any text, letter case changed, a trailing slash,
 * a segment added or dropped) and paths of any text.
 */
function requestPath(routes: string[]): fc.Arbitrary<string> {
  const text = fc.string({
    unit: fc.constantFrom('a', 'Z', '0', '-', '.', '%', '/', 'é', 'K', ' ', '_'),
    maxLength: 6,
  });
  const near = fc
    .tuple(
      fc.constantFrom(...routes),
      fc.array(text, { minLength: 4, maxLength: 4 }),
      fc.boolean(),
      fc.constantFrom('same', 'trailing', 'extra', 'dropped', 'double'),
    )
    .map(([route, fills, upper, change]) => {
      let k = 0;
      let path = route.replace(/:\w+|\*\w+|\{[^}]*\}/g, () => fills[k++ % fills.length]);
      path = upper ? path.toUpperCase() : path;
      switch (change) {
        case 'same':
          return path;
        case 'trailing':
          return `${path}/`;
        case 'extra':
          return `${path}/${fills[3]}`;
        case 'dropped':
          return path.slice(0, Math.max(1, path.lastIndexOf('/')));
        case 'double':
          return path.replace('/', '//');
        default:
          return change satisfies never;
      }
    });
  return fc.oneof(
    near,
    text.map((t) => `/${t}`),
  );
}
