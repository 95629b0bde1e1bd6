/** One command of `npm run admin`: how it reads its arguments into an API call, and how it shows the answer. */
export interface AdminCommand {
  usage: string;
  request(args: string[], options: Record<string, string>): { method: string; path: string; body?: unknown };
  show(answer: AnswerFields): string;
}

/** The API's JSON answer, as the commands read it: flat fields (the `me` answer is read through {@link MeAnswer}). */
export type AnswerFields = Readonly<Record<string, string | number | undefined>>;

interface MeAnswer {
  service_account: AnswerFields;
  organization?: AnswerFields;
  projects: AnswerFields[];
}

interface CreatedOrganization {
  id: number;
  name: string;
  owner: AnswerFields;
}

const need = (args: string[], count: number, usage: string) => {
  if (args.length < count) throw new Error(`usage: admin ${usage}`);
  return args;
};

const projectRoles = (option: string | undefined) =>
  (option ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [id, role] = pair.split(':');
      return { id: Number(id), role: role ?? 'consumer' };
    });

const secretLine = (label: string, value: AnswerFields[string]) => `${label} ${value}    <- shown only now; keep it`;

export const ADMIN_COMMANDS: Record<string, AdminCommand> = {
  me: {
    usage: 'me',
    request: () => ({ method: 'GET', path: '/api/app/me' }),
    show: (answer) => {
      const r = answer as unknown as MeAnswer;
      return [
        `service account ${r.service_account.username} (${r.service_account.role})`,
        `organization    ${r.organization?.id} ${r.organization?.name}`,
        ...r.projects.map((p) => `project         ${p.id} ${p.name} (${p.role}, ${p.region})`),
      ].join('\n');
    },
  },
  'create-organization': {
    usage: 'create-organization <name> [--owner-username NAME]',
    request: (args, o) => ({
      method: 'POST',
      path: '/api/app/organizations',
      body: {
        name: need(args, 1, ADMIN_COMMANDS['create-organization'].usage)[0],
        owner_username: o['owner-username'],
      },
    }),
    show: (answer) => {
      const r = answer as unknown as CreatedOrganization;
      return [
        `organization ${r.id} ${r.name}`,
        `owner        ${r.owner.username}`,
        secretLine('secret      ', r.owner.token),
      ].join('\n');
    },
  },
  'create-project': {
    usage: 'create-project <organizationId> <name> [--region US|EU|IN]',
    request: (args, o) => {
      const [organization, name] = need(args, 2, ADMIN_COMMANDS['create-project'].usage);
      return {
        method: 'POST',
        path: `/api/app/organizations/${organization}/projects`,
        body: { name, region: o.region },
      };
    },
    show: (r) =>
      [`project ${r.id} ${r.name} (${r.region})`, `token   ${r.token}`, secretLine('secret ', r.secret)].join('\n'),
  },
  'create-service-account': {
    usage:
      'create-service-account <organizationId> <username> [--role owner|admin|analyst|consumer] [--projects id:role,…] [--expires ISO-8601]',
    request: (args, o) => {
      const [organization, username] = need(args, 2, ADMIN_COMMANDS['create-service-account'].usage);
      return {
        method: 'POST',
        path: `/api/app/organizations/${organization}/service-accounts`,
        body: { username, role: o.role, expires: o.expires, projects: projectRoles(o.projects) },
      };
    },
    show: (r) =>
      [`service account ${r.id} ${r.username} (${r.role})`, secretLine('secret         ', r.token)].join('\n'),
  },
  'create-oauth-token': {
    usage: 'create-oauth-token <organizationId> [--expires-in seconds]',
    request: (args, o) => ({
      method: 'POST',
      path: `/api/app/organizations/${need(args, 1, ADMIN_COMMANDS['create-oauth-token'].usage)[0]}/oauth-tokens`,
      body: { expires_in: o['expires-in'] === undefined ? undefined : Number(o['expires-in']) },
    }),
    show: (r) => [secretLine('token  ', r.token), `expires ${r.expires}`].join('\n'),
  },
  'set-retention': {
    usage: 'set-retention <projectId> <days|forever>',
    request: (args) => {
      const [project, days] = need(args, 2, ADMIN_COMMANDS['set-retention'].usage);
      // The API checks the range; "forever" is its null, and anything but digits is refused here (NaN would send null).
      if (days !== 'forever' && !/^\d+$/.test(days))
        throw new Error(`usage: admin ${ADMIN_COMMANDS['set-retention'].usage} (days: a whole number, or forever)`);
      return {
        method: 'PATCH',
        path: `/api/app/projects/${project}`,
        body: { data_retention_days: days === 'forever' ? null : Number(days) },
      };
    },
    show: (r) =>
      `project ${r.id} ${r.name}: ${r.data_retention_days === null ? 'events kept for ever' : `events kept ${r.data_retention_days} days`}`,
  },
  'rotate-secret': {
    usage: 'rotate-secret <projectId>',
    request: (args) => ({
      method: 'POST',
      path: `/api/app/projects/${need(args, 1, ADMIN_COMMANDS['rotate-secret'].usage)[0]}/rotate-secret`,
    }),
    show: (r) => [`project ${r.id} ${r.name}`, secretLine('secret ', r.secret)].join('\n'),
  },
};
