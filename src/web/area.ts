// The web area: HTML pages at the html_urls the API hands out (gists first), an embed script and archives. It owns no
// data: it reads the other areas through their read side (reads, stores, services, presenters), as GraphQL does.
import type { Area } from '../core/area.js';
import { webRoutes } from './routes.js';

export const webArea: Area = { name: 'web', routes: webRoutes };
