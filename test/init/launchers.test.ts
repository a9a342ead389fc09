/**
 * parseLaunch: what a client config's stdio command starts, on the command lines the servers'
 * READMEs and the clients' docs show (npx, npm exec, pnpm/yarn dlx, bunx, uvx, uv tool run, pipx
 * run, docker/podman run, node node_modules/...) and on ones that only look like them.
 */
import { describe, expect, it } from 'vitest';
import { npmSpec, parseLaunch } from '../../src/init/launchers.js';

describe('parseLaunch: npm packages fetched at start', () => {
  it('npx -y <pkg> <args>: the package, no version, the server arguments', () => {
    expect(parseLaunch('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop'])).toEqual({
      kind: 'npm',
      runner: 'npx -y',
      name: '@modelcontextprotocol/server-filesystem',
      version: undefined,
      rest: ['/Users/username/Desktop'],
    });
  });

  it('versions, tags and ranges after the name', () => {
    expect(parseLaunch('npx', ['--yes', '@playwright/mcp@latest'])).toMatchObject({ name: '@playwright/mcp', version: 'latest' });
    expect(parseLaunch('npx', ['-y', 'firecrawl-mcp@3.2.1', '--port', '3000'])).toMatchObject({
      name: 'firecrawl-mcp',
      version: '3.2.1',
      rest: ['--port', '3000'],
    });
    expect(parseLaunch('npx', ['-y', 'pkg@^1.2.0'])).toMatchObject({ name: 'pkg', version: '^1.2.0' });
    expect(npmSpec('@scope/name')).toEqual({ name: '@scope/name', version: undefined });
    expect(npmSpec('@scope/name@')).toBeUndefined();
  });

  it('npx -p <pkg> <bin>: the package from --package, the bin to run; a -p among the server arguments is the server\u2019s', () => {
    expect(parseLaunch('npx', ['-y', '-p', '@acme/tools@2.0.0', 'acme-mcp', '--stdio'])).toEqual({
      kind: 'npm',
      runner: 'npx -y',
      name: '@acme/tools',
      version: '2.0.0',
      bin: 'acme-mcp',
      rest: ['--stdio'],
    });
    expect(parseLaunch('npx', ['--package=@acme/tools', 'acme-mcp'])).toMatchObject({ name: '@acme/tools', bin: 'acme-mcp', runner: 'npx' });
    expect(parseLaunch('npx', ['-y', 'srv', '-p', '8080'])).toMatchObject({ name: 'srv', rest: ['-p', '8080'] });
    expect(parseLaunch('npx', ['-y', 'srv', '-p', '8080'])).not.toHaveProperty('bin');
  });

  it('npm exec, pnpm dlx, yarn dlx, bunx, bun x, pnpx, npx.cmd', () => {
    expect(parseLaunch('npm', ['exec', '--yes', '--', 'srv@1.0.0', '--flag'])).toMatchObject({
      runner: 'npm exec --yes',
      name: 'srv',
      version: '1.0.0',
      rest: ['--flag'],
    });
    expect(parseLaunch('pnpm', ['dlx', 'srv'])).toMatchObject({ runner: 'pnpm dlx', name: 'srv' });
    expect(parseLaunch('yarn', ['dlx', '-p', 'srv@1.0.0', 'srv-bin'])).toMatchObject({ runner: 'yarn dlx', name: 'srv', bin: 'srv-bin' });
    expect(parseLaunch('bunx', ['srv'])).toMatchObject({ runner: 'bunx', name: 'srv' });
    expect(parseLaunch('bun', ['x', 'srv'])).toMatchObject({ runner: 'bun x', name: 'srv' });
    expect(parseLaunch('pnpx', ['srv'])).toMatchObject({ runner: 'pnpx', name: 'srv' });
    expect(parseLaunch('C:/Program Files/nodejs/npx.cmd', ['-y', 'srv'])).toMatchObject({ kind: 'npm', name: 'srv' });
    expect(parseLaunch('npx', ['--registry', 'https://r.example', 'srv'])).toMatchObject({ name: 'srv', runner: 'npx --registry https://r.example' });
  });

  it('what is not a registry package, or not a package start this reads', () => {
    expect(parseLaunch('npx', ['-y', 'github:acme/srv'])).toEqual({ kind: 'npm-other', runner: 'npx -y', spec: 'github:acme/srv' });
    expect(parseLaunch('npx', ['-y', './tools/srv.tgz'])).toMatchObject({ kind: 'npm-other' });
    expect(parseLaunch('npx', ['-c', 'srv --stdio'])).toMatchObject({ kind: 'npm-other' });
    expect(parseLaunch('npx', ['-p', 'a', '-p', 'b', 'bin'])).toMatchObject({ kind: 'npm-other' });
    expect(parseLaunch('npx', ['-y'])).toEqual({ kind: 'plain' });
    expect(parseLaunch('npm', ['run', 'start'])).toEqual({ kind: 'plain' });
  });
});

describe('parseLaunch: Python packages and images', () => {
  it('uvx and uv tool run: pinned with == or @version, not with @latest or nothing', () => {
    expect(parseLaunch('uvx', ['mcp-server-fetch'])).toEqual({ kind: 'python', runner: 'uvx', spec: 'mcp-server-fetch', pinned: false });
    expect(parseLaunch('uvx', ['mcp-server-git', '--repository', 'path/to/git/repo'])).toMatchObject({ spec: 'mcp-server-git', pinned: false });
    expect(parseLaunch('uvx', ['mcp-server-time==2025.9.25'])).toMatchObject({ pinned: true });
    expect(parseLaunch('uvx', ['ruff@0.6.0'])).toMatchObject({ pinned: true });
    expect(parseLaunch('uvx', ['ruff@latest'])).toMatchObject({ pinned: false });
    expect(parseLaunch('uvx', ['mcp-server>=1.0'])).toMatchObject({ pinned: false });
    expect(parseLaunch('uvx', ['--from', 'mcp-server-sqlite==0.6.2', 'mcp-server-sqlite', '--db-path', 'x.db'])).toMatchObject({
      runner: 'uvx --from mcp-server-sqlite==0.6.2',
      spec: 'mcp-server-sqlite==0.6.2',
      pinned: true,
    });
    expect(parseLaunch('uvx', ['--python', '3.12', 'srv'])).toMatchObject({ spec: 'srv', pinned: false });
    expect(parseLaunch('uv', ['tool', 'run', 'srv[cli]==1.0.0'])).toMatchObject({ runner: 'uv tool run', pinned: true });
    expect(parseLaunch('pipx', ['run', '--spec', 'srv==1.0.0', 'srv'])).toMatchObject({ runner: 'pipx run --spec srv==1.0.0', pinned: true });
  });

  it('docker run and podman run: the image after the options; a digest pins it, a tag names it, nothing or :latest does neither', () => {
    expect(parseLaunch('docker', ['run', '--rm', '-i', '--mount', 'type=bind,src=/Users/username,dst=/Users/username', 'mcp/git'])).toEqual({
      kind: 'image',
      runner: 'docker run',
      image: 'mcp/git',
      pin: 'none',
    });
    expect(parseLaunch('docker', ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'])).toMatchObject({
      image: 'ghcr.io/github/github-mcp-server',
      pin: 'none',
    });
    expect(parseLaunch('docker', ['run', '-it', 'mcp/git:latest'])).toMatchObject({ pin: 'none' });
    expect(parseLaunch('docker', ['run', '-i', 'localhost:5000/mcp/git'])).toMatchObject({ pin: 'none' });
    expect(parseLaunch('docker', ['run', '-i', 'localhost:5000/mcp/git:1.2'])).toMatchObject({ pin: 'tag' });
    expect(parseLaunch('podman', ['run', '--env=A=b', `mcp/git@sha256:${'a'.repeat(64)}`])).toMatchObject({ runner: 'podman run', pin: 'digest' });
    expect(parseLaunch('docker', ['run', '-i', '--rm'])).toEqual({ kind: 'plain' });
  });

  it('node node_modules/<pkg>/...: the installed copy; anything else is a plain command', () => {
    expect(parseLaunch('node', ['node_modules/@modelcontextprotocol/server-memory/dist/index.js'])).toEqual({
      kind: 'installed',
      name: '@modelcontextprotocol/server-memory',
    });
    expect(parseLaunch('node', ['./node_modules/srv/cli.js'])).toEqual({ kind: 'installed', name: 'srv' });
    expect(parseLaunch('node', ['dist/server.js'])).toEqual({ kind: 'plain' });
    expect(parseLaunch('python', ['-m', 'mcp_server_git'])).toEqual({ kind: 'plain' });
  });
});
