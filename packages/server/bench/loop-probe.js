// Preloaded into a benchmarked server (`node --import ./loop-probe.js`): a timer probe of
// the event loop. A 1 ms interval notes every gap between its ticks longer than
// LOOP_PROBE_MIN_MS as [end, length, CPU ms, monotonic end] in epoch milliseconds (both processes read the same
// clock), so the bench can find the longest block inside a request's window; on exit the
// gaps are written to LOOP_PROBE_FILE. The interval keeps no process alive.
import fs from 'node:fs';

const file = process.env.LOOP_PROBE_FILE;
const minMs = Number(process.env.LOOP_PROBE_MIN_MS ?? 0.5);
const gaps = [];
const now = () => performance.timeOrigin + performance.now();
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let last = now();
let lastCpu = cpuMs();
setInterval(() => {
  const at = now();
  const cpu = cpuMs();
  // Also the CPU time the process used in the gap (less sensitive to other processes on the
  // machine) and the monotonic clock of CPU profiles (ms), to match a gap with samples.
  if (at - last > minMs + 1) gaps.push([at, at - last - 1, cpu - lastCpu, Number(process.hrtime.bigint() / 1000n) / 1000]);
  last = at;
  lastCpu = cpu;
}, 1).unref();
if (file) process.on('exit', () => fs.writeFileSync(file, JSON.stringify(gaps)));
