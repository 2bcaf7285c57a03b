declare module 'virtual:api-routes' {
  import type { HttpMethod, RouteName } from '@gantry/contract';

  /** Each route of the contract by name: its method and its path with `{name}` parameters (api-routes-plugin.ts). */
  const table: Record<RouteName, readonly [HttpMethod, string]>;
  export default table;
}
