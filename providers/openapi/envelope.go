package openapi

import "strings"

// envelopeFields are the names (lower-cased, letters and digits only) of the
// properties that sit beside the rows in a list envelope: paging, counts
// and response metadata. DigitalOcean {droplets, links, meta}, Slack {ok,
// channels, response_metadata}, Kubernetes {items, metadata, kind,
// apiVersion}, Jira {values, isLast, startAt, maxResults, total}, Stripe
// {object, data, has_more, url}, Twilio {calls, page, page_size, uri,
// next_page_uri, ...}.
var envelopeFields = map[string]bool{
	"links": true, "link": true, "meta": true, "metadata": true, "responsemetadata": true,
	"ok": true, "kind": true, "apiversion": true, "object": true, "hasmore": true,
	"url": true, "uri": true, "href": true, "self": true, "islast": true, "isfirst": true, "startat": true,
	"maxresults": true, "total": true, "totalcount": true, "totalitems": true,
	"totalresults": true, "totalpages": true, "count": true, "size": true,
	"next": true, "nextpage": true, "nextpageuri": true, "nextpageurl": true,
	"nextpagetoken": true, "nextcursor": true, "nextlink": true, "nexturl": true,
	"previous": true, "prev": true, "previouspage": true, "previouspageuri": true,
	"prevpage": true, "firstpageuri": true, "lastpageuri": true, "first": true, "last": true,
	"page": true, "pages": true, "pagesize": true, "perpage": true, "pagination": true,
	"paging": true, "start": true, "end": true, "offset": true, "limit": true,
	"cursor": true, "cursors": true, "continue": true, "warning": true, "warnings": true,
	"expand": true, "numpages": true, "pagecount": true, "resultcount": true,
	"pagenumber": true, "pageindex": true, "totalrecords": true, "totalelements": true,
	"totalsize": true, "hasnext": true, "hasprevious": true, "nextoffset": true,
	"odatanextlink": true, "odatacount": true, "odatacontext": true,
}

// isEnvelopeField reports whether a property beside an item array is
// paging or metadata.
func isEnvelopeField(name string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return envelopeFields[b.String()]
}

// envelopeKey returns the item array of a list envelope: the single
// array-of-objects property when every other property is paging or
// metadata (isEnvelopeField), else "".
func envelopeKey(names []string, arrayOfObjects []string) string {
	if len(arrayOfObjects) != 1 {
		return ""
	}
	key := arrayOfObjects[0]
	for _, n := range names {
		if n != key && !isEnvelopeField(n) {
			return ""
		}
	}
	return key
}
