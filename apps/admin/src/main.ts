// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import { ADMIN_COMMANDS, AnswerFields } from './admin-commands';
import { backup, restore } from './backup-commands';

const HELP = `Administer a running platform through its HTTP API.

  npm run admin -- <command> [arguments] [--json] [--url URL] [--username U] [--secret S]

Credentials: --username/--secret or ADMIN_USERNAME/ADMIN_SECRET (a service account);
server: --url or ADMIN_URL (default http://localhost:8080).

Commands:
${Object.values(ADMIN_COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}
  backup <directory | s3://bucket/prefix>
  restore <file | directory | s3://bucket/key-or-prefix>   (the server stopped; DATA_DIR empty)

backup asks the running server for a copy of its embedded engines and files (an organization
owner's credentials); restore rebuilds DATA_DIR from it. S3_ENDPOINT, S3_REGION,
S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY reach the bucket (docs/backup.md).
`;

function parse(argv: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) positional.push(arg);
    else if (arg === '--json' || arg === '--help') options[arg.slice(2)] = 'true';
    else options[arg.slice(2)] = argv[++i] ?? '';
  }
  return { positional, options };
}

/** `npm run admin`: a thin client of the management API, readable output or --json. */
async function main(argv: string[]): Promise<number> {
  const { positional, options } = parse(argv);
  const [name, ...args] = positional;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const command = name ? ADMIN_COMMANDS[name] : undefined;
  if ((!command && name !== 'backup' && name !== 'restore') || options.help) {
    process.stdout.write(HELP);
    return command || options.help ? 0 : 2;
  }
  // Offline: the server is stopped while its data directory is rebuilt.
  if (name === 'restore') return restore(args[0], say).then(() => 0);
  const username = options.username ?? process.env.ADMIN_USERNAME;
  const secret = options.secret ?? process.env.ADMIN_SECRET;
  if (!username || !secret)
    throw new Error('credentials needed: --username and --secret, or ADMIN_USERNAME and ADMIN_SECRET');
  const base = (options.url ?? process.env.ADMIN_URL ?? 'http://localhost:8080').replace(/\/$/, '');
  const authorization = `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`;
  if (!command) {
    const post = (path: string) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: authorization } });
    say(`backup written to ${await backup(args[0], post)}`);
    return 0;
  }
  const { method, path, body } = command.request(args, options);
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({ status: 'error', error: `HTTP ${response.status}` }))) as {
    status: string;
    results?: AnswerFields;
    error?: string;
  };
  if (options.json) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  else if (answer.status === 'ok') process.stdout.write(`${command.show(answer.results ?? {})}\n`);
  if (answer.status !== 'ok') {
    if (!options.json) process.stderr.write(`error: ${answer.error ?? `HTTP ${response.status}`}\n`);
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
