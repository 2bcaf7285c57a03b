#!/usr/bin/env node
import { runCli } from '../dist/cli/gantry.js';

const code = await runCli(process.argv.slice(2));
// `serve` keeps running and exits from its signal handlers.
if (code >= 0) process.exitCode = code;
