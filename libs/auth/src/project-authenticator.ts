import { Clock } from '@analytics/clock';
import { Project, ProjectChange, ProjectsService } from '@analytics/projects';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';

const HIT_TTL_MS = 30_000;
const MISS_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
/** No project has a longer token or secret (generated ones have 32 characters, bootstrap ones at most 64). */
const MAX_CREDENTIAL_LENGTH = 256;

/** No project has it: over-long (would fill the miss cache), or holding NUL (Postgres text cannot). */
const impossibleCredential = (credential: string) =>
  credential.length > MAX_CREDENTIAL_LENGTH || credential.includes('\u0000');

/** Remembered lookups, the oldest forgotten first past {@link MAX_ENTRIES}. */
class Remembered<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, expiresAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt });
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Resolves a project secret, token or id to its project, remembering answers in memory: a project
 * found for 30 s, so the ingestion path pays the KDF (secrets are scrypt hashes) once per half minute;
 * nothing found for 10 s, so a flood of one unknown token or wrong secret costs one lookup per 10 s.
 * Secrets are keyed by their SHA-256, never the plaintext. Projects this process creates or changes
 * are seen at once (the misses, or everything, are forgotten); another replica's within those times:
 * a rotated secret keeps working there for up to 30 s, a new project is unknown there for up to 10 s
 * to a token or secret that was tried before it existed.
 */
@Injectable()
export class ProjectAuthenticator {
  private readonly hits = new Remembered<Project>();
  private readonly misses = new Remembered<true>();
  /** Lookups under way: the same key asked for at once is looked up once. */
  private readonly pending = new Map<string, Promise<Project | undefined>>();

  constructor(
    private readonly projects: ProjectsService,
    private readonly clock: Clock,
  ) {
    projects.onChange((change: ProjectChange) => (change === 'created' ? this.misses.clear() : this.clear()));
  }

  bySecret(secret: string): Promise<Project | undefined> {
    if (impossibleCredential(secret)) return Promise.resolve(undefined);
    return this.cached(secretKey(secret), () => this.projects.findBySecret(secret));
  }

  byToken(token: string): Promise<Project | undefined> {
    if (impossibleCredential(token)) return Promise.resolve(undefined);
    return this.cached(`t:${token}`, () => this.projects.findByToken(token));
  }

  byId(id: number): Promise<Project | undefined> {
    return this.cached(`i:${id}`, () => this.projects.findById(id));
  }

  /** Whether this secret names a project this process verified recently (no lookup, no KDF). */
  isKnownSecret(secret: string): boolean {
    return this.hits.get(secretKey(secret), this.clock.now()) !== undefined;
  }

  isKnownToken(token: string): boolean {
    return this.hits.get(`t:${token}`, this.clock.now()) !== undefined;
  }

  /** Forgets everything, e.g. after a secret rotation in this process. */
  clear(): void {
    this.hits.clear();
    this.misses.clear();
  }

  private cached(key: string, load: () => Promise<Project | undefined>): Promise<Project | undefined> {
    const now = this.clock.now();
    const hit = this.hits.get(key, now);
    if (hit) return Promise.resolve(hit);
    if (this.misses.get(key, now)) return Promise.resolve(undefined);
    const running = this.pending.get(key);
    if (running) return running;
    const lookup = load()
      .then((project) => {
        const at = this.clock.now();
        if (project) this.hits.set(key, project, at + HIT_TTL_MS);
        else this.misses.set(key, true, at + MISS_TTL_MS);
        return project;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, lookup);
    return lookup;
  }
}

const secretKey = (secret: string) => `s:${createHash('sha256').update(secret).digest('hex')}`;
