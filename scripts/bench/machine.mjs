// What the benchmarks print about the machine and their figures: the CPU model and the median.

import { readFileSync } from "node:fs";
import { cpus } from "node:os";

/** The CPU's model name (`/proc/cpuinfo`, else Node's). */
export function cpuModel() {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8").split("\n").find((l) => l.startsWith("model name"));
    return line ? line.split(":")[1].trim() : cpus()[0].model;
  } catch {
    return cpus()[0]?.model ?? "unknown CPU";
  }
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
