// The container, proved by simulation (no image can be pulled where the tests run): the Dockerfile
// and compose.yaml are parsed and every path, command, port, variable and health check they name is
// looked for in the project, its README and .env.example. Planted mistakes prove the checks bite.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const read = (file: string) => readFileSync(file, 'utf8')

// ---- Dockerfile: the instructions this project's file uses, nothing more ----

interface Instruction {
  keyword: string
  /** The text after the keyword, continuation lines joined. */
  text: string
  line: number
}
interface Stage {
  name: string
  base: string
  instructions: Instruction[]
}

const DOCKERFILE_KEYWORDS = new Set([
  'ARG',
  'FROM',
  'WORKDIR',
  'COPY',
  'RUN',
  'ENV',
  'VOLUME',
  'USER',
  'EXPOSE',
  'HEALTHCHECK',
  'ENTRYPOINT',
  'CMD',
])

function parseDockerfile(text: string) {
  const instructions: Instruction[] = []
  let pending: Instruction | undefined
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim()
    if (!pending && (trimmed === '' || trimmed.startsWith('#'))) return
    if (pending && trimmed.startsWith('#')) return
    const continues = trimmed.endsWith('\\')
    const body = continues ? trimmed.slice(0, -1).trim() : trimmed
    if (pending) pending.text += ` ${body}`
    else {
      const [keyword = '', ...rest] = body.split(/\s+/)
      if (!DOCKERFILE_KEYWORDS.has(keyword))
        throw new Error(`Dockerfile line ${index + 1}: ${keyword} is not an instruction this checker knows`)
      pending = { keyword, text: rest.join(' '), line: index + 1 }
    }
    if (!continues) {
      instructions.push({ ...pending, text: pending.text.trim() })
      pending = undefined
    }
  })
  // ARGs before the first FROM are for the FROM lines; a stage sees one only once it declares it.
  const globals = new Map<string, string>()
  let visible = new Map<string, string>()
  const stages: Stage[] = []
  const expand = (text: string, values: Map<string, string>) =>
    text.replace(/\$\{(\w+)\}/g, (whole, name: string) => values.get(name) ?? whole)
  for (const instruction of instructions) {
    if (instruction.keyword === 'ARG') {
      const [name = '', value] = instruction.text.split('=')
      if (stages.length === 0) globals.set(name, value ?? '')
      else visible.set(name, value ?? globals.get(name) ?? '')
    } else if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = expand(instruction.text, globals).split(/\s+/)
      stages.push({ base, name: as?.toUpperCase() === 'AS' && name ? name : `stage-${stages.length}`, instructions: [] })
      visible = new Map()
    } else stages.at(-1)?.instructions.push({ ...instruction, text: expand(instruction.text, visible) })
  }
  return { stages, args: globals }
}

/** An exec-form command (["node", "…"]), or null for the shell form. */
const execForm = (text: string) => (text.startsWith('[') ? (JSON.parse(text) as string[]) : null)

/** ENV a=b c=d (the only form used here). */
function envOf(stage: Stage) {
  const env = new Map<string, string>()
  for (const { text } of stage.instructions.filter((instruction) => instruction.keyword === 'ENV')) {
    for (const pair of text.split(/\s+/)) {
      const [name = '', value = ''] = pair.split('=')
      env.set(name, value)
    }
  }
  return env
}

function only(stage: Stage, keyword: string) {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword)
}

// ---- compose.yaml: block maps, block lists, plain and 'single-quoted' scalars, ['flow', 'lists'] ----

type Yaml = string | null | Yaml[] | { [key: string]: Yaml }

function parseYamlSubset(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw, index) => ({ raw, number: index + 1, indent: raw.search(/\S/) }))
    .filter(({ raw }) => raw.trim() !== '' && !raw.trim().startsWith('#'))
  let index = 0
  const unsupported = (number: number) => new Error(`compose.yaml line ${number}: not in the subset this checker reads`)
  const QUOTED = /^'((?:[^']|'')*)'$/
  const scalar = (value: string, number: number): string => {
    const quoted = QUOTED.exec(value)
    if (quoted) return quoted[1]!.replaceAll("''", "'")
    if (/^["{&*!|>%@`]/.test(value) || / #/.test(value)) throw unsupported(number)
    return value
  }
  const flowList = (value: string, number: number): string[] => {
    const inner = value.slice(1, -1).trim()
    if (!value.endsWith(']')) throw unsupported(number)
    return inner === '' ? [] : [...inner.matchAll(/\s*('(?:[^']|'')*'|[^,'[\]]+?)\s*(?:,|$)/g)].map((item) => scalar(item[1]!, number))
  }
  const value = (text: string, number: number): Yaml => (text.startsWith('[') ? flowList(text, number) : scalar(text, number))
  const block = (indent: number): Yaml => {
    const list = lines[index]!.raw.trim().startsWith('- ')
    const map: Record<string, Yaml> = {}
    const items: Yaml[] = []
    while (index < lines.length) {
      const line = lines[index]!
      if (line.indent < indent) break
      if (line.indent > indent) throw new Error(`compose.yaml line ${line.number}: unexpected indentation`)
      const body = line.raw.trim()
      index++
      if (list) {
        if (!body.startsWith('- ')) throw new Error(`compose.yaml line ${line.number}: a list item was expected`)
        items.push(value(body.slice(2), line.number))
        continue
      }
      const match = /^([\w.-]+):(?:\s+(.+))?$/.exec(body)
      if (!match) throw new Error(`compose.yaml line ${line.number}: not in the subset this checker reads`)
      const next = lines[index]
      map[match[1]!] = match[2] !== undefined ? value(match[2], line.number) : next && next.indent > indent ? block(next.indent) : null
    }
    return list ? items : map
  }
  return block(0)
}

type Service = {
  build?: string
  image?: string
  env_file?: string
  environment?: Record<string, string>
  ports?: string[]
  volumes?: string[]
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  entrypoint?: string[]
  command?: string[]
  stop_grace_period?: string
}
type Compose = { services: Record<string, Service>; volumes: Record<string, null> }

// ---- what the project offers ----

const packageJson = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  engines: { node: string }
}

function walk(folder: string, keep: (file: string) => boolean): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const file = path.join(folder, entry)
    if (statSync(file).isDirectory()) return walk(file, keep)
    return keep(file) ? [file] : []
  })
}
const isTest = (file: string) => /\.test\.tsx?$/.test(file)

/** Every variable the server, its scripts or its configuration schema read. */
function variablesRead() {
  const sources = [
    'app/platform/env.server.ts',
    'server.js',
    ...walk('server', (file) => /\.[jt]s$/.test(file) && !isTest(file)),
    ...walk('scripts', (file) => file.endsWith('.js')),
    ...walk('app', (file) => file.endsWith('.server.ts')),
  ]
  const names = new Set<string>()
  for (const file of sources) {
    const text = read(file)
    for (const match of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)|env\??\.([A-Z][A-Z0-9_]+)/g)) names.add(match[1] ?? match[2]!)
  }
  const schema = read('app/platform/env.server.ts')
  const body = schema.slice(schema.indexOf('const EnvSchema'), schema.indexOf('export type Env'))
  for (const match of body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)) names.add(match[1]!)
  return names
}

/** Documented for the operator: in the README (in backticks) and in .env.example (set or commented). */
function documented(name: string) {
  return read('README.md').includes(`\`${name}\``) && new RegExp(`^#? ?${name}=`, 'm').test(read('.env.example'))
}

/** A path the server answers: a route of app/routes.ts, or one the Express layer handles itself. */
function isRoute(urlPath: string) {
  const routes = read('app/routes.ts')
  if (routes.includes(`route('${urlPath.slice(1)}'`)) return true
  const serverFiles = ['server.js', ...walk('server', (file) => /\.[jt]s$/.test(file) && !isTest(file))]
  return serverFiles.some((file) => read(file).includes(`'${urlPath}'`))
}

/** .dockerignore's patterns (top-level names, `**` globs, `!` exceptions), as the build context sees them. */
function ignoredByDocker(file: string, dockerignore: string) {
  let ignored = false
  for (const raw of dockerignore.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const negate = line.startsWith('!')
    const pattern = negate ? line.slice(1) : line
    const regex = new RegExp(
      `^${pattern
        .replace(/[.+^$()|[\]]/g, '\\$&')
        .replace(/\*\*\//g, '(.*/)?')
        .replace(/\*/g, '[^/]*')}(/.*)?$`,
    )
    if (regex.test(file)) ignored = !negate
  }
  return ignored
}

/** What a file imports for its code: import and export statements, dynamic imports; not `import type`. */
function importSpecifiers(file: string) {
  const text = read(file).replace(/^import type [^;]*?from '[^']+'/gm, '')
  return [...text.matchAll(/^(?:import|export)\s[\w\s{},*$]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)].map(
    (match) => (match[1] ?? match[2] ?? match[3])!,
  )
}

/** Local modules a file imports, from the project's root. */
function localImports(file: string) {
  return importSpecifiers(file)
    .filter((specifier) => /^\.{1,2}\//.test(specifier))
    .map((specifier) => path.normalize(path.join(path.dirname(file), specifier)))
}

/** Packages a file imports. */
function packageImports(file: string) {
  return importSpecifiers(file)
    .filter((name) => !/^[.~/]/.test(name) && !name.startsWith('node:') && !name.startsWith('virtual:'))
    .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!))
}

// ---- the checks ----

const RUNTIME_ENTRY_POINTS = ['server.js', 'scripts/start.js', 'scripts/healthcheck.js']
/** Read from disk at run time rather than imported: the migrations, the browser files, ESM's "type". */
const RUNTIME_FILES = ['drizzle/meta/_journal.json', 'build/client', 'package.json']
/** Imported only on a path the runtime never takes. */
const DEVELOPMENT_ONLY = new Set([
  'vite', // server.js, when NODE_ENV=development
])

function checkContainer({
  dockerfile = read('Dockerfile'),
  compose: composeText = read('compose.yaml'),
  dockerignore = read('.dockerignore'),
}: { dockerfile?: string; compose?: string; dockerignore?: string } = {}) {
  const problems: string[] = []
  const problem = (text: string) => problems.push(text)
  const { stages, args } = parseDockerfile(dockerfile)
  const compose = parseYamlSubset(composeText) as unknown as Compose
  const readByApp = variablesRead()
  const stageNames = new Set(stages.map((stage) => stage.name))
  const runtime = stages.at(-1)!
  const runtimeEnv = envOf(runtime)
  const workdir = only(runtime, 'WORKDIR').at(-1)?.text ?? '/'

  // Base images: Node of package.json's engines, on Debian bookworm as CI.
  const engineMajor = Number(/(\d+)/.exec(packageJson.engines.node)?.[1])
  for (const stage of stages) {
    if (stageNames.has(stage.base)) continue
    const major = Number(/^node:(\d+)-bookworm-slim$/.exec(stage.base)?.[1])
    if (!(major >= engineMajor))
      problem(`stage ${stage.name}: base image ${stage.base} is not node:<${engineMajor} or newer>-bookworm-slim`)
  }

  // The build stage's context: every source the build reads (ensure-build.js's list) and the
  // TypeScript configuration its path aliases come from.
  const buildSources = [...(/const SOURCES = \[([^\]]*)\]/.exec(read('scripts/ensure-build.js'))?.[1] ?? '').matchAll(/'([^']+)'/g)].map(
    (match) => match[1]!,
  )
  for (const source of [...buildSources, 'tsconfig.json', 'package-lock.json']) {
    if (!existsSync(source) || ignoredByDocker(source, dockerignore)) problem(`the build needs ${source}, which .dockerignore leaves out`)
  }

  // Commands: npm scripts that exist, npm install (the project's way, never npm ci).
  for (const stage of stages) {
    for (const { text, line } of only(stage, 'RUN')) {
      for (const match of text.matchAll(/npm run ([\w:-]+)/g)) {
        if (!packageJson.scripts[match[1]!]) problem(`line ${line}: npm run ${match[1]} is not a script of package.json`)
      }
      if (/npm ci\b/.test(text)) problem(`line ${line}: the project installs with npm install, not npm ci`)
    }
  }

  // What each stage makes: node_modules by npm install (production only with --omit=dev), build/ by npm run build.
  const stageOf = (name: string) => stages.find((stage) => stage.name === name)
  const ancestry = (stage: Stage): Stage[] => {
    const parent = stageOf(stage.base)
    return parent ? [...ancestry(parent), stage] : [stage]
  }
  const runs = (stage: Stage) => ancestry(stage).flatMap((each) => only(each, 'RUN').map((instruction) => instruction.text))
  const copied: string[] = []
  for (const stage of stages) {
    for (const { text, line } of only(stage, 'COPY')) {
      const parts = text.split(/\s+/)
      const from = parts.find((part) => part.startsWith('--from='))?.slice('--from='.length)
      const [destination = '', ...sources] = parts.filter((part) => !part.startsWith('--')).reverse()
      sources.reverse()
      const stageWorkdir = ancestry(stage)
        .flatMap((each) => only(each, 'WORKDIR'))
        .at(-1)?.text
      const target = (source: string) =>
        path.posix.join(
          stageWorkdir ?? '/',
          destination.endsWith('/') || sources.length > 1 ? path.posix.join(destination, path.posix.basename(source)) : destination,
        )
      for (const source of sources) {
        if (from) {
          const producer = stageOf(from)
          if (!producer) {
            problem(`line ${line}: COPY --from=${from}: no such stage`)
            continue
          }
          const relative = path.posix.relative(
            ancestry(producer)
              .flatMap((each) => only(each, 'WORKDIR'))
              .at(-1)?.text ?? '/',
            source,
          )
          const produced =
            relative === 'node_modules'
              ? runs(producer).some((run) => /npm install\b/.test(run))
              : relative === 'build'
                ? runs(producer).some((run) => /npm run build\b/.test(run)) && packageJson.scripts.build === 'react-router build'
                : existsSync(relative) && !ignoredByDocker(relative, dockerignore)
          if (!produced) problem(`line ${line}: COPY --from=${from} ${source}: that stage does not make it`)
          if (stage === runtime && relative === 'node_modules' && !runs(producer).some((run) => /npm install --omit=dev\b/.test(run))) {
            problem(`line ${line}: the runtime's node_modules must be a production install (npm install --omit=dev)`)
          }
        } else if (source !== '.' && (!existsSync(source) || ignoredByDocker(source, dockerignore))) {
          problem(`line ${line}: COPY ${source}: not in the build context (missing, or left out by .dockerignore)`)
        }
        if (stage === runtime) copied.push(path.posix.relative(workdir, target(source)))
      }
    }
  }

  // The runtime has every local module its entry points and npm scripts load, through their imports.
  const inRuntime = (file: string) => copied.some((entry) => file === entry || file.startsWith(`${entry}/`))
  const scriptFiles = Object.values(packageJson.scripts)
    .map((command) => /^node (scripts\/[\w-]+\.js)$/.exec(command)?.[1])
    .filter(
      (file): file is string =>
        Boolean(file) && ['start', 'backup', 'restore', 'jobs', 'make-admin'].some((name) => packageJson.scripts[name] === `node ${file}`),
    )
  const seen = new Set<string>()
  for (const file of RUNTIME_FILES) if (!inRuntime(file)) problem(`the runtime stage lacks ${file} (copy it)`)
  const queue = [...RUNTIME_ENTRY_POINTS, ...scriptFiles]
  while (queue.length > 0) {
    const file = queue.shift()!
    if (seen.has(file)) continue
    seen.add(file)
    if (!inRuntime(file)) problem(`the runtime stage lacks ${file} (copy it)`)
    if (file.startsWith('build/')) continue
    if (!existsSync(file)) {
      problem(`${file} does not exist`)
      continue
    }
    queue.push(...localImports(file))
  }

  // Production dependencies are enough for what runs: the server bundle leaves packages outside.
  const runtimeSources = [
    ...[...seen].filter((file) => !file.startsWith('build/') && existsSync(file)),
    ...walk('app', (file) => /\.tsx?$/.test(file) && !isTest(file) && file !== 'app/routes.ts'),
    ...walk('server', (file) => /\.ts$/.test(file) && !isTest(file)),
  ]
  for (const file of runtimeSources) {
    for (const name of packageImports(file)) {
      if (!packageJson.dependencies[name] && !DEVELOPMENT_ONLY.has(name))
        problem(`${file} imports ${name}, which is not a production dependency`)
    }
  }

  // The runtime: not root, npm start's command behind an init that passes signals on.
  const user = only(runtime, 'USER').at(-1)?.text
  if (!user || user === 'root' || user === '0') problem('the runtime stage runs as root')
  const cmd = execForm(only(runtime, 'CMD').at(-1)?.text ?? '')
  if (cmd?.join(' ') !== packageJson.scripts.start)
    problem(`the runtime's CMD is not what npm start runs (${packageJson.scripts.start}) in exec form`)
  const entrypoint = execForm(only(runtime, 'ENTRYPOINT').at(-1)?.text ?? '')
  if (!/\/tini$/.test(entrypoint?.[0] ?? '') || !runs(runtime).some((run) => /apt-get install[^&]*\btini\b/.test(run))) {
    problem('the runtime needs tini installed and as its ENTRYPOINT (SIGTERM to Node, zombies reaped)')
  }

  // Variables: each one the app reads, each documented.
  for (const name of runtimeEnv.keys()) {
    if (!readByApp.has(name)) problem(`Dockerfile ENV ${name}: the app never reads it`)
    else if (!documented(name)) problem(`Dockerfile ENV ${name}: not documented in README.md and .env.example`)
  }

  // Port: the server's default, the image's ENV and EXPOSE, compose's container port.
  const serverDefault = /process\.env\.PORT \|\| '(\d+)'/.exec(read('server.js'))?.[1]
  const schemaDefault = /PORT: z\.coerce\.number\(\)[^\n]*\.default\((\d+)\)/.exec(read('app/platform/env.server.ts'))?.[1]
  const exposed = only(runtime, 'EXPOSE').map((instruction) => instruction.text)
  const port = runtimeEnv.get('PORT') ?? serverDefault
  if (serverDefault !== schemaDefault) problem(`server.js's default port ${serverDefault} is not the schema's ${schemaDefault}`)
  if (exposed.length !== 1 || exposed[0] !== port) problem(`EXPOSE ${exposed.join(' ')} is not the port the server listens on (${port})`)

  // Health check: node (no curl in slim) running a copied script on a path the server answers.
  const checkHealth = (command: string[], where: string) => {
    const [program, script, urlPath = '/healthz'] = command[0] === 'CMD' ? command.slice(1) : command
    if (program !== 'node' || !script || !inRuntime(script) || !existsSync(script))
      problem(`${where}: runs ${command.join(' ')}, not node with a script of the image`)
    if (!isRoute(urlPath)) problem(`${where}: ${urlPath} is not a path the server answers`)
    return urlPath
  }
  const healthcheck = only(runtime, 'HEALTHCHECK').at(-1)
  if (!healthcheck) problem('the runtime stage has no HEALTHCHECK')
  else {
    const command = execForm(healthcheck.text.slice(healthcheck.text.indexOf('CMD ') + 4)) ?? []
    if (checkHealth(command, 'HEALTHCHECK') !== '/healthz') problem('the image HEALTHCHECK must be the liveness check /healthz')
  }

  // The data volume is the embedded database's folder.
  const volumes = only(runtime, 'VOLUME').map((instruction) => instruction.text)
  if (!runtimeEnv.get('DATA_DIR') || !volumes.includes(runtimeEnv.get('DATA_DIR')!))
    problem('the runtime must declare DATA_DIR as a VOLUME')

  // compose.yaml
  const services = compose.services ?? {}
  const app = Object.values(services).find((service) => service.build === '.')
  if (!app) {
    problem('compose.yaml: no service built from this Dockerfile (build: .)')
    return problems
  }
  if (app.env_file !== '.env' || !read('.gitignore').split('\n').includes('.env') || !ignoredByDocker('.env', dockerignore)) {
    problem('compose.yaml: the app takes its secrets from env_file .env, which git and the image leave out')
  }
  for (const [name, value] of Object.entries(app.environment ?? {})) {
    if (!readByApp.has(name)) problem(`compose.yaml: the app's ${name} is never read by the app`)
    else if (!documented(name)) problem(`compose.yaml: the app's ${name} is not documented in README.md and .env.example`)
    if (name === 'DATABASE_URL') {
      const url = new URL(value.replace(/\$\{[^}]+\}/g, 'x'))
      const database = services[url.hostname]
      if (!database?.image?.startsWith('postgres:'))
        problem(`compose.yaml: DATABASE_URL's host ${url.hostname} is not the PostgreSQL service`)
      else if (database.environment?.POSTGRES_USER !== url.username || database.environment?.POSTGRES_DB !== url.pathname.slice(1)) {
        problem('compose.yaml: DATABASE_URL does not name the PostgreSQL service’s user and database')
      }
    }
    if ((name === 'PORT' || name === 'DATA_DIR') && value !== runtimeEnv.get(name)) {
      problem(`compose.yaml: the app's ${name} ${value} is not the image's ${runtimeEnv.get(name)}`)
    }
    if (name === 'S3_ENDPOINT' && !services[new URL(value).hostname]) problem(`compose.yaml: S3_ENDPOINT's host is not a service`)
  }
  for (const match of composeText.matchAll(/\$\{(\w+)/g)) {
    const name = match[1]!
    if (!documented(name)) {
      problem(`compose.yaml: \${${name}} is not documented in README.md and .env.example`)
    }
  }
  const published = (app.ports ?? []).map((mapping) => mapping.split(':').at(-1))
  if (published.length === 0 || published.some((containerPort) => containerPort !== port))
    problem(`compose.yaml: the app's ports ${published.join(', ')} are not ${port}`)
  if (!app.volumes?.some((volume) => volume.split(':')[1] === runtimeEnv.get('DATA_DIR')))
    problem('compose.yaml: no volume on the app’s DATA_DIR')
  if (!app.healthcheck) problem('compose.yaml: the app has no healthcheck')
  else if (checkHealth(app.healthcheck.test, 'compose.yaml app healthcheck') !== '/readyz')
    problem('compose.yaml: the app’s healthcheck must be the readiness check /readyz')
  // A stop is SHUTDOWN_DELAY_SECONDS of serving (compose's, else the image's), then the drain.
  const drainSeconds = Number(/const DRAIN_MS = ([\d_]+)/.exec(read('server.js'))?.[1]?.replace('_', '')) / 1000 + 5
  const delaySeconds = Number(app.environment?.SHUTDOWN_DELAY_SECONDS ?? runtimeEnv.get('SHUTDOWN_DELAY_SECONDS') ?? 0)
  if (!(Number.parseInt(app.stop_grace_period ?? '10', 10) > delaySeconds + drainSeconds))
    problem(
      `compose.yaml: stop_grace_period must exceed the server's ${delaySeconds + drainSeconds} s stop (${delaySeconds} s SHUTDOWN_DELAY_SECONDS, then the ${drainSeconds} s drain)`,
    )
  for (const [name, { condition }] of Object.entries(app.depends_on ?? {})) {
    const dependency = services[name]
    if (!dependency) problem(`compose.yaml: the app depends on ${name}, no such service`)
    else if (condition === 'service_healthy' ? !dependency.healthcheck : condition !== 'service_completed_successfully') {
      problem(`compose.yaml: the app waits for ${name} with ${condition}, which it cannot report`)
    }
  }
  const postgres = Object.values(services).find((service) => service.image?.startsWith('postgres:'))
  if (!postgres || !app.depends_on?.[Object.keys(services).find((name) => services[name] === postgres)!])
    problem('compose.yaml: the app must wait for a PostgreSQL service')
  else {
    if (postgres.healthcheck?.test[1] !== 'pg_isready') problem('compose.yaml: PostgreSQL’s healthcheck must be pg_isready')
    // npm run backup in the image: its pg_dump must be at least the server's version.
    const serverMajor = /^postgres:(\d+)/.exec(postgres.image!)?.[1]
    if (serverMajor !== args.get('PG_MAJOR') || !runs(runtime).some((run) => run.includes(`postgresql-client-${serverMajor}`))) {
      problem(`compose.yaml: PostgreSQL ${serverMajor} is not the image's pg_dump version (PG_MAJOR ${args.get('PG_MAJOR')})`)
    }
  }
  const bucket = app.environment?.S3_BUCKET
  if (
    bucket &&
    !Object.values(services).some((service) => service.entrypoint?.join(' ').includes(`mb --ignore-existing store/${bucket}`))
  ) {
    problem(`compose.yaml: no one-shot service creates the bucket ${bucket}`)
  }
  for (const service of Object.values(services)) {
    for (const volume of service.volumes ?? []) {
      const name = volume.split(':')[0]!
      if (!name.startsWith('.') && !name.startsWith('/') && !(name in (compose.volumes ?? {})))
        problem(`compose.yaml: volume ${name} is not declared`)
    }
  }
  return problems
}

describe('the container, by simulation', () => {
  test('the Dockerfile and compose.yaml name only what the project has', () => {
    expect(checkContainer()).toEqual([])
  })

  const dockerfile = read('Dockerfile')
  const compose = read('compose.yaml')
  test.each([
    ['a COPY of a path that does not exist', 'COPY drizzle ./drizzle', 'COPY drizzel ./drizzle', /COPY drizzel: not in the build context/],
    ['a COPY of a path .dockerignore leaves out', 'COPY drizzle ./drizzle', 'COPY tests ./tests', /COPY tests: not in the build context/],
    [
      'a script left out of the runtime',
      'COPY scripts ./scripts',
      'COPY scripts/start.js ./scripts/',
      /the runtime stage lacks scripts\/memory\.js/,
    ],
    ['an npm script that does not exist', 'RUN npm run build', 'RUN npm run compile', /npm run compile is not a script/],
    ['npm ci', 'RUN npm install --no-audit', 'RUN npm ci --no-audit', /npm install, not npm ci/],
    ['development dependencies at run time', 'npm install --omit=dev', 'npm install', /production install/],
    ['a health check on a path nobody answers', '"/healthz"]', '"/health"]', /\/health is not a path the server answers/],
    ['root', 'USER node', 'USER root', /runs as root/],
    ['another command than npm start', 'CMD ["node", "scripts/start.js"]', 'CMD ["node", "server.js"]', /not what npm start runs/],
    [
      'a shell between the signal and Node',
      'CMD ["node", "scripts/start.js"]',
      'CMD node scripts/start.js',
      /not what npm start runs .* in exec form/,
    ],
    ['a stage that forgets to declare the ARG it uses', 'ARG PG_MAJOR\n# tini', '# tini', /PostgreSQL 17 is not the image's pg_dump/],
    ['the migrations left out', 'COPY drizzle ./drizzle\n', '', /the runtime stage lacks drizzle\/meta\/_journal\.json/],
    ['a port the server does not use', 'EXPOSE 3000', 'EXPOSE 8080', /EXPOSE 8080 is not the port/],
    ['a variable the app never reads', 'MEMORY_LIMIT_MB=512', 'MEMORY_LIMIT=512', /ENV MEMORY_LIMIT: the app never reads it/],
    [
      'a shutdown delay compose.yaml’s grace period does not cover',
      'SHUTDOWN_DELAY_SECONDS=5',
      'SHUTDOWN_DELAY_SECONDS=15',
      /stop_grace_period must exceed the server's 30 s stop/,
    ],
    ['an older base image than the engines', 'node:20-bookworm-slim', 'node:18-bookworm-slim', /is not node:<20 or newer>-bookworm-slim/],
  ])('the check reports %s in the Dockerfile', (_, from, to, expected) => {
    expect(dockerfile).toContain(from)
    expect(checkContainer({ dockerfile: dockerfile.replace(from, to) }).join('\n')).toMatch(expected)
  })

  test.each([
    ['a published port the server does not use', "'127.0.0.1:3000:3000'", "'127.0.0.1:3000:3001'", /ports 3001 are not 3000/],
    ['a variable the app never reads', "S3_REGION: 'us-east-1'", "S3_ZONE: 'us-east-1'", /S3_ZONE is never read/],
    ['a health check on a path nobody answers', "'/readyz']", "'/ready']", /\/ready is not a path the server answers/],
    ['a database host that is not the service', '@postgres:5432', '@db:5432', /host db is not the PostgreSQL service/],
    [
      'a PostgreSQL newer than the image’s pg_dump',
      'postgres:17-bookworm',
      'postgres:18-bookworm',
      /PostgreSQL 18 is not the image's pg_dump/,
    ],
    ['an undeclared volume', "'minio-data:/data'", "'store-data:/data'", /volume store-data is not declared/],
    ['a bucket nobody creates', "S3_BUCKET: 'circulo-uploads'", "S3_BUCKET: 'uploads'", /no one-shot service creates the bucket uploads/],
    ['a grace period shorter than the drain', 'stop_grace_period: 25s', 'stop_grace_period: 10s', /stop_grace_period must exceed/],
    [
      'a grace period that leaves out the shutdown delay',
      'stop_grace_period: 25s',
      'stop_grace_period: 20s',
      /stop_grace_period must exceed the server's 20 s stop \(5 s SHUTDOWN_DELAY_SECONDS, then the 15 s drain\)/,
    ],
    [
      'another data folder than the image’s volume',
      "DATA_DIR: '/data'",
      "DATA_DIR: './data'",
      /DATA_DIR \.\/data is not the image's \/data/,
    ],
    ['secrets baked in rather than read from .env', 'env_file: .env', 'env_file: app.env', /secrets from env_file \.env/],
  ])('the check reports %s in compose.yaml', (_, from, to, expected) => {
    expect(compose).toContain(from)
    expect(checkContainer({ compose: compose.replace(from, to) }).join('\n')).toMatch(expected)
  })

  test('the check reports a service waited for on a health it does not report', () => {
    const withoutHealth = compose.replace(/ {4}healthcheck:\n {6}test: \['CMD', 'pg_isready'.*\n( {6}\w+: .*\n)*/, '')
    expect(withoutHealth).not.toContain('pg_isready')
    expect(checkContainer({ compose: withoutHealth }).join('\n')).toMatch(/waits for postgres with service_healthy, which it cannot report/)
  })

  test('the check reports a build source .dockerignore leaves out', () => {
    expect(checkContainer({ dockerignore: `${read('.dockerignore')}\npublic\n` }).join('\n')).toMatch(/the build needs public/)
  })

  test('the parsers refuse what they do not understand instead of guessing', () => {
    expect(() => parseDockerfile('FROM node:20-bookworm-slim\nADD https://example.com/x /x\n')).toThrow(/ADD is not an instruction/)
    expect(() => parseYamlSubset('services:\n  app:\n    image: "x"\n')).toThrow(/not in the subset/)
  })

  test('the runtime stage, without development dependencies, runs the build it was given instead of building', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'runtime-'))
    try {
      mkdirSync(path.join(root, 'scripts'))
      cpSync('scripts/ensure-build.js', path.join(root, 'scripts/ensure-build.js'))
      writeFileSync(path.join(root, 'package.json'), '{"type":"module"}')
      mkdirSync(path.join(root, 'build/server'), { recursive: true })
      writeFileSync(path.join(root, 'build/server/index.js'), '')
      // Sources newer than the build, as a COPY in a later layer can make them.
      const old = new Date(Date.now() - 3_600_000)
      utimesSync(path.join(root, 'build/server/index.js'), old, old)
      mkdirSync(path.join(root, 'server'))
      writeFileSync(path.join(root, 'server/dotenv.js'), '')
      const run = () =>
        execFileSync(
          process.execPath,
          ['--input-type=module', '-e', `import { ensureBuild } from './scripts/ensure-build.js'; ensureBuild(); console.log('ran')`],
          {
            cwd: root,
            encoding: 'utf8',
            stdio: 'pipe',
          },
        )
      expect(run().trim()).toBe('ran')
      rmSync(path.join(root, 'build'), { recursive: true })
      expect(run).toThrow(/there is no build, and this install cannot make one/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
