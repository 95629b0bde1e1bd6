const { TestEnvironment } = require('jest-environment-node');

const CHDB = Symbol.for('analytics.test.chdb');

/**
 * Node's environment, plus one rule: a test file leaves no chDB session open. chDB lets a process
 * hold one data directory at a time, and jest runs the next file in the same worker with a fresh
 * module registry, which knows nothing of the last file's sessions: a session whose close was late
 * (a slow teardown on a loaded machine) made the next file's chDB refuse its own directory. When the
 * file's last hook has run, every session closes: chDB defers a session's teardown behind the work
 * still running on it, and the drain waits for both.
 */
class AnalyticsTestEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name !== 'run_finish') return;
    const chdb = this.global[CHDB];
    if (!chdb) return;
    chdb._closeAllSessions();
    await chdb.drainPending();
  }
}

module.exports = AnalyticsTestEnvironment;
