#!/usr/bin/env node
// Runs every workspace's `bench` script in turn, shows its output, and prints — as the
// very last line — one JSON object merging the figures: every line a benchmark printed
// that is a JSON object.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function runBench(workspace) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'bench', '-w', workspace], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${workspace} bench exited ${code}`))));
  });
}

const figures = {};
for (const workspace of workspaces) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
  if (!manifest.scripts?.bench) continue;
  console.log(`\n== ${manifest.name} bench`);
  const output = await runBench(workspace);
  const lines = output.split('\n').filter((line) => line.startsWith('{') && line.endsWith('}'));
  if (lines.length === 0) throw new Error(`${workspace} bench printed no JSON line of figures`);
  for (const line of lines) Object.assign(figures, JSON.parse(line));
}
console.log(JSON.stringify(figures));
