// An http-request URL with its mustache values filled in. Each `{{tag}}` is rendered alone and
// percent-encoded, so a fact cannot add a path segment, a query or a host. Encoding alone does not
// stop a value that *is* a dot segment (`..`, `.`, `%2e%2e`): URL parsers remove those, climbing
// out of the segment the rule named (`/orders/{{ref}}/confirm` with ref `..` reached `/confirm`).
// So the rendered path must keep the template's dot segments exactly; otherwise the request is
// refused (permanently: the same event renders the same URL). Pure.
import { EgressRefusedError } from '../net/egress-policy';

const TAG = /\{\{\{?[^}]*\}?\}\}/g;
/** `.` and `..` in any case of their percent-encoded forms, as the WHATWG URL parser reads them. */
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

export function renderUrl(url: string, render: (t: string) => string): string {
  const rendered = url.replace(TAG, (tag) => encodeURIComponent(render(tag)));
  if (dotSegments(rendered) !== dotSegments(url.replace(TAG, 'x')))
    throw new EgressRefusedError(
      'egress_path_refused',
      'refused: a value filled into the URL is a dot segment (. or ..) that would change the path',
    );
  return rendered;
}

/** Where the path's dot segments are (index:segment), as written, before any normalisation. */
function dotSegments(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0];
  return path
    .split(/[/\\]/)
    .map((segment, i) => (DOT_SEGMENT.test(segment) ? `${i}:${segment.toLowerCase()}` : ''))
    .filter((s) => s !== '')
    .join(',');
}
