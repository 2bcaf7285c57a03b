/** @gantry/engine — pure CPM scheduling. See README.md. */
export const ENGINE_VERSION = '0.1.0';
