// Dependency rules for src/ (`make deps`, run by `make test`): boundaries run one way, and no folder or module cycles.
//
// Layers, each importing only from those below it:
//   src/cli                                   the command line (imports the server to build its local app)
//   src/server/*.ts                           the composition root: app.ts lists the areas and wires them
//   src/graphql                               GraphQL, a second front end over the areas (reads them like their routes)
//   src/web                                   the HTML pages, a third front end over the areas (reads them as GraphQL does)
//   src/{gists,repos,webhooks,migrations}     the areas: never one another (one exception: migrations -> repos)
//   src/accounts                              users, organizations, tokens, authentication (areas use it)
//   src/app                                   the app context and the Area shape (registries built per app)
//   src/{events,jobs}                         the event log and the job queue (narrow contexts of their own)
//   src/server/http, src/git, src/blob        HTTP rules (errors, grants, pagination…), git on disk, archive storage
//   src/{db,secrets,net}, src/config.ts       database, sealing at rest, outbound host policy, configuration
const AREAS = '(gists|repos|webhooks|migrations)';
const BELOW_AREAS = '^src/(accounts|app|events|jobs|server/http|git|blob|db|secrets|net)/|^src/[^/]+[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycles',
      comment: 'A file must not reach itself through its imports (type-only imports included).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders depend one way: a folder must not reach itself through the folders it imports.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'config-imports-only-leaves',
      comment:
        'config.ts (and version.ts) are the bottom layer: they import only the leaf folders net/ and secrets/ ' +
        '(folder cycles between src/ itself and a folder under it are not seen by no-folder-cycles).',
      severity: 'error',
      from: { path: '^src/[^/]+[.]ts$' },
      to: { path: '^src/', pathNot: '^src/(net|secrets)/|^src/[^/]+[.]ts$' },
    },
    {
      name: 'leaves-import-nothing',
      comment: 'net/ and secrets/ import nothing else of src/, so config.ts may use them.',
      severity: 'error',
      from: { path: '^src/(net|secrets)/' },
      to: { path: '^src/', pathNot: '^src/$1/' },
    },
    {
      name: 'lower-layers-never-import-areas',
      comment: 'accounts, app, events, jobs, server/http, git, blob, db, secrets, net and config.ts serve the areas; they never import one.',
      severity: 'error',
      from: { path: BELOW_AREAS },
      to: { path: `^src/${AREAS}/` },
    },
    {
      name: 'areas-never-import-areas',
      comment: 'An area talks to another only through the layers below (events, jobs, the registries on the app context).',
      severity: 'error',
      from: { path: `^src/(gists|repos|webhooks)/` },
      to: { path: `^src/${AREAS}/`, pathNot: '^src/$1/' },
    },
    {
      name: 'migrations-imports-only-repos',
      comment:
        'The one exception: migration archives are exports of repositories (their rows, git data, read rule and locks), ' +
        'so migrations may import repos; never the other way (lower-layer and cycle rules), and no other area.',
      severity: 'error',
      from: { path: '^src/migrations/' },
      to: { path: `^src/${AREAS}/`, pathNot: '^src/(migrations|repos)/' },
    },
    {
      name: 'graphql-reads-areas-through-their-read-side',
      comment:
        'GraphQL is a second front end over the areas, as their REST routes are: it may use their services, read functions, ' +
        'stores and presenters (and accounts, and the layers below), never their routes or internals, so each read rule stays ' +
        'the area\'s own; and since it sits above every area, no area or lower layer imports it (only app.ts lists it).',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: `^src/${AREAS}/`, pathNot: `^src/${AREAS}/(service|reads|store|present)[.]ts$` },
    },
    {
      name: 'nothing-below-imports-graphql',
      comment: 'Only the composition root (src/server/*.ts) registers GraphQL; the areas and the layers below never import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(graphql|cli)/|^src/server/[^/]+[.]ts$' },
      to: { path: '^src/graphql/' },
    },
    {
      name: 'web-reads-areas-through-their-read-side',
      comment:
        'The web pages are a front end over the areas, as GraphQL is: they may use the areas\' services, read functions, ' +
        'stores and presenters (and accounts, and the layers below), never their routes or internals, so each read and ' +
        'visibility rule stays the area\'s own.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: `^src/${AREAS}/`, pathNot: `^src/${AREAS}/(service|reads|store|present)[.]ts$` },
    },
    {
      name: 'nothing-below-imports-web',
      comment: 'Only the composition root (src/server/*.ts) registers the web pages; no area, GraphQL or lower layer imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(web|cli)/|^src/server/[^/]+[.]ts$' },
      to: { path: '^src/web/' },
    },
    {
      name: 'below-accounts-never-imports-accounts',
      comment: 'The app context, events, jobs and the HTTP rules know no account code (accounts builds on them).',
      severity: 'error',
      from: { path: '^src/(app|events|jobs|server/http|git|blob|db|secrets|net)/|^src/[^/]+[.]ts$' },
      to: { path: '^src/accounts/' },
    },
    {
      name: 'only-the-cli-imports-the-composition-root',
      comment: 'src/server/*.ts builds the app from every area: only the CLI (serve, local mode) may import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|server)/' },
      to: { path: '^src/server/[^/]+[.]ts$' },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // ESM sources import './x.js' for ./x.ts.
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
