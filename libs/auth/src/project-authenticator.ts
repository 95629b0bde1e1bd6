import { Project, ProjectsService } from '@analytics/projects';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

interface Cached {
  project: Project;
  expiresAt: number;
}

/**
 * Resolves a project secret or token to its project. Secrets are stored as slow scrypt hashes, so a
 * verified secret is remembered for 30 s in memory, keyed by its SHA-256 (never the plaintext): the
 * ingestion path then pays the KDF once per half minute, not per request. A rotated secret stops
 * working within that time.
 */
@Injectable()
export class ProjectAuthenticator {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly projects: ProjectsService) {}

  bySecret(secret: string): Promise<Project | undefined> {
    return this.cached(secretKey(secret), () => this.projects.findBySecret(secret));
  }

  byToken(token: string): Promise<Project | undefined> {
    return this.cached(`t:${token}`, () => this.projects.findByToken(token));
  }

  /** Whether this secret names a project this process verified recently (no lookup, no KDF). */
  isKnownSecret(secret: string): boolean {
    return this.fresh(secretKey(secret)) !== undefined;
  }

  isKnownToken(token: string): boolean {
    return this.fresh(`t:${token}`) !== undefined;
  }

  byId(id: number): Promise<Project | undefined> {
    return this.cached(`i:${id}`, () => this.projects.findById(id));
  }

  /** Forgets everything, e.g. after a secret rotation in this process. */
  clear(): void {
    this.cache.clear();
  }

  private fresh(key: string): Project | undefined {
    const hit = this.cache.get(key);
    return hit && hit.expiresAt > Date.now() ? hit.project : undefined;
  }

  private async cached(key: string, load: () => Promise<Project | undefined>): Promise<Project | undefined> {
    const now = Date.now();
    const hit = this.fresh(key);
    if (hit) return hit;
    const project = await load();
    if (!project) return undefined;
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { project, expiresAt: now + CACHE_TTL_MS });
    return project;
  }
}

const secretKey = (secret: string) => `s:${createHash('sha256').update(secret).digest('hex')}`;
