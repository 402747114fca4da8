// The benchmark scripts' command line: `--name value` options and `--name` switches, read from
// this process's arguments.

const args = process.argv.slice(2);

/** The value given after `name`, or `dflt` when `name` is absent. */
export const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};

/** Whether the switch `name` is given. */
export const flag = (name) => args.includes(name);
