/**
 * Just enough of the Dockerfile grammar to check deploy/docker/Dockerfile: comments, line
 * continuations, stages (`FROM image AS name`) and `${ARG}` defaults in FROM. Heredocs and a
 * changed escape character are refused rather than misread.
 */

export interface Instruction {
  keyword: string;
  arguments: string;
  line: number;
}

export interface Stage {
  name?: string;
  /** The FROM image with global ARG defaults substituted. */
  image: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  globalArguments: Map<string, string | undefined>;
  stages: Stage[];
}

function logicalLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (/^#\s*escape\s*=/i.test(trimmed)) throw new Error('a changed escape character is not supported');
    // Comments and blank lines may sit inside a continued instruction; they are dropped.
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continued = trimmed.endsWith('\\');
    const body = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${body}`, line: pending.line } : { text: body, line: index + 1 };
    if (!continued) {
      lines.push(pending);
      pending = undefined;
    }
  });
  if (pending) throw new Error(`line ${pending.line}: the last instruction ends with a continuation`);
  return lines;
}

function substitute(value: string, variables: Map<string, string | undefined>): string {
  return value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => variables.get((braced ?? bare)!) ?? '');
}

/** `ARG NAME=value` or `ENV NAME=value NAME2="v 2"` (also the legacy `ENV NAME value`) as pairs. */
export function assignments(instruction: Instruction): [string, string | undefined][] {
  const text = instruction.arguments;
  if (instruction.keyword === 'ENV' && !/^\w+=/.test(text)) {
    const [name, ...value] = text.split(/\s+/);
    return [[name, value.join(' ')]];
  }
  const pairs: [string, string | undefined][] = [];
  for (const match of text.matchAll(/(\w+)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|\S*))?/g)) {
    const value = match[2]?.replace(/^(["'])(.*)\1$/, '$2');
    pairs.push([match[1], value]);
  }
  return pairs;
}

export function parseDockerfile(text: string): Dockerfile {
  const globalArguments = new Map<string, string | undefined>();
  const stages: Stage[] = [];
  for (const { text: line, line: number } of logicalLines(text)) {
    const match = /^(\w+)\s*(.*)$/.exec(line);
    if (!match) throw new Error(`line ${number}: not an instruction: ${line}`);
    const instruction = { keyword: match[1].toUpperCase(), arguments: match[2], line: number };
    if (/<<-?\w/.test(instruction.arguments) && ['RUN', 'COPY'].includes(instruction.keyword)) {
      throw new Error(`line ${number}: heredocs are not supported`);
    }
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.arguments.split(/\s+/).filter((word) => !word.startsWith('--'));
      stages.push({ image: substitute(image, globalArguments), name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`line ${number}: only ARG may come before FROM`);
      for (const [name, value] of assignments(instruction)) globalArguments.set(name, value);
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { globalArguments, stages };
}
