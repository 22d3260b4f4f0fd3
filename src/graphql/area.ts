// GraphQL (POST /graphql, /api/graphql): a second front end over the areas, as their REST routes are, registered like an
// area. It reads through the areas' services, read functions and stores, and owns no data of its own.
import type { Area } from '../core/area.js';
import { graphqlRoutes } from './routes.js';

export const graphqlArea: Area = { name: 'graphql', routes: graphqlRoutes };
