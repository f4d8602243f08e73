package fakeapis

import (
	"fmt"
	"net/http"
	"strconv"
)

// The fakes of issue 32: APIs whose "more" signal stands inside an
// envelope, each answering 5 items in pages of at most PageSize.
//
//   - /twilio: Twilio-like (every v1/v2 description). GET /v1/Services
//     answers {services, meta: {page, page_size, first_page_url, url,
//     next_page_url, key}} and pages with PageSize, Page and PageToken in
//     meta.next_page_url (null on the last page).
//   - /box: Box-like. GET /2.0/folders/{id}/items answers {entries,
//     total_count, limit, offset, order: [{by, direction}]} and pages by
//     offset and limit; with usemarker=true it answers {entries, limit,
//     next_marker} and pages by marker instead (folder "stuck" ignores
//     the offset: every page is the first). GET /2.0/users answers
//     {entries, limit, next_marker} always (its test description declares
//     only entries: the signal the engine cannot infer). GET
//     /2.0/legal_hold_policies answers {entries, limit, next_marker} with
//     an integer marker (the index of the next item), as Box's own
//     description declares it.
//   - /mailchimp: Mailchimp-like. GET /lists answers {lists,
//     total_items, constraints, _links: [...]} and pages by offset and
//     count; GET /automations answers {automations, total_items, _links}
//     the same way (its test description declares no paging parameter);
//     GET /conversations/{id}/messages answers {conversation_messages,
//     conversation_id, total_items, _links} in one page.
//   - /asana: Asana-like. GET /projects answers {data, next_page: {offset,
//     path, uri}} (next_page null on the last page) and pages with offset
//     and limit; GET /tags/{gid} answers one tag {data: {gid, name,
//     followers: [...]}}.
var (
	services = []obj{
		{"sid": "IS001", "unique_name": "alpha", "friendly_name": "Alpha"},
		{"sid": "IS002", "unique_name": "beta", "friendly_name": "Beta"},
		{"sid": "IS003", "unique_name": "gamma", "friendly_name": "Gamma"},
		{"sid": "IS004", "unique_name": "delta", "friendly_name": "Delta"},
		{"sid": "IS005", "unique_name": "epsilon", "friendly_name": "Epsilon"},
	}
	boxItems = []obj{
		{"id": "11", "type": "file", "name": "a.txt"},
		{"id": "12", "type": "file", "name": "b.txt"},
		{"id": "13", "type": "folder", "name": "c"},
		{"id": "14", "type": "file", "name": "d.txt"},
		{"id": "15", "type": "web_link", "name": "e"},
	}
	boxUsers = []obj{
		{"id": "u1", "type": "user", "login": "ann@example.com"},
		{"id": "u2", "type": "user", "login": "ben@example.com"},
		{"id": "u3", "type": "user", "login": "cat@example.com"},
		{"id": "u4", "type": "user", "login": "dan@example.com"},
		{"id": "u5", "type": "user", "login": "eve@example.com"},
	}
	boxPolicies = []obj{
		{"id": "p1", "type": "legal_hold_policy", "policy_name": "Lit 1"},
		{"id": "p2", "type": "legal_hold_policy", "policy_name": "Lit 2"},
		{"id": "p3", "type": "legal_hold_policy", "policy_name": "Lit 3"},
		{"id": "p4", "type": "legal_hold_policy", "policy_name": "Lit 4"},
		{"id": "p5", "type": "legal_hold_policy", "policy_name": "Lit 5"},
	}
	mailchimpLists = []obj{
		{"id": "l1", "name": "Customers", "status": "save"},
		{"id": "l2", "name": "Leads", "status": "save"},
		{"id": "l3", "name": "Press", "status": "save"},
		{"id": "l4", "name": "Partners", "status": "save"},
		{"id": "l5", "name": "Staff", "status": "save"},
	}
	asanaProjects = []obj{
		{"gid": "101", "name": "Launch", "resource_type": "project"},
		{"gid": "102", "name": "Hiring", "resource_type": "project"},
		{"gid": "103", "name": "Budget", "resource_type": "project"},
		{"gid": "104", "name": "Website", "resource_type": "project"},
		{"gid": "105", "name": "Offsite", "resource_type": "project"},
	}
)

func (s *Server) moreRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /twilio/v1/Services", s.twilioServices)
	mux.HandleFunc("GET /box/2.0/folders/{id}/items", s.boxFolderItems)
	mux.HandleFunc("GET /box/2.0/users", s.boxMarker(boxUsers))
	mux.HandleFunc("GET /box/2.0/legal_hold_policies", s.boxIntMarker)
	mux.HandleFunc("GET /asana/projects", s.asanaProjects)
	mux.HandleFunc("GET /mailchimp/lists", s.mailchimpLists)
	mux.HandleFunc("GET /mailchimp/automations", s.mailchimpLists)
	mux.HandleFunc("GET /mailchimp/conversations/{id}/messages", s.mailchimpMessages)
	mux.HandleFunc("GET /asana/tags/{gid}", s.asanaTag)
}

// window returns the items from start, at most n (capped at PageSize),
// and the index after them.
func window(list []obj, start, n int) ([]obj, int) {
	if n <= 0 {
		n = PageSize
	}
	start = max(0, min(start, len(list)))
	end := min(start+min(n, PageSize), len(list))
	return list[start:end], end
}

func (s *Server) twilioServices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size, _ := strconv.Atoi(q.Get("PageSize"))
	if size <= 0 {
		size = 50
	}
	page, _ := strconv.Atoi(q.Get("Page"))
	start := 0
	if tok := q.Get("PageToken"); tok != "" {
		if _, err := fmt.Sscanf(tok, "PT%d", &start); err != nil {
			writeJSON(w, http.StatusBadRequest, obj{"code": 20001, "message": "Invalid PageToken", "status": 400})
			return
		}
	}
	items, end := window(services, start, size)
	base := "http://" + r.Host + "/twilio/v1/Services"
	var next any
	if end < len(services) {
		next = fmt.Sprintf("%s?PageSize=%d&Page=%d&PageToken=PT%d", base, size, page+1, end)
	}
	writeJSON(w, http.StatusOK, obj{"services": items, "meta": obj{
		"page": page, "page_size": min(size, PageSize), "first_page_url": fmt.Sprintf("%s?PageSize=%d&Page=0", base, size),
		"previous_page_url": nil, "url": base + "?" + r.URL.RawQuery, "next_page_url": next, "key": "services"}})
}

func (s *Server) boxFolderItems(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("usemarker") == "true" {
		s.boxMarker(boxItems)(w, r)
		return
	}
	offset, _ := strconv.Atoi(q.Get("offset"))
	if r.PathValue("id") == "stuck" {
		offset = 0 // a server that ignores the offset: every page is the first
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	items, _ := window(boxItems, offset, limit)
	writeJSON(w, http.StatusOK, obj{"entries": items, "total_count": len(boxItems), "limit": min(max(limit, 1), PageSize), "offset": offset,
		"order": []obj{{"by": "type", "direction": "ASC"}, {"by": "name", "direction": "ASC"}}})
}

// boxMarker pages list by marker ("m" + the index of the next item).
func (s *Server) boxMarker(list []obj) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		start := 0
		if m := q.Get("marker"); m != "" {
			if _, err := fmt.Sscanf(m, "m%d", &start); err != nil {
				writeJSON(w, http.StatusBadRequest, obj{"type": "error", "status": 400, "code": "bad_request", "message": "Invalid marker"})
				return
			}
		}
		limit, _ := strconv.Atoi(q.Get("limit"))
		items, end := window(list, start, limit)
		body := obj{"entries": items, "limit": PageSize}
		if end < len(list) {
			body["next_marker"] = "m" + strconv.Itoa(end)
		}
		writeJSON(w, http.StatusOK, body)
	}
}

// boxIntMarker pages the legal hold policies by an integer marker.
func (s *Server) boxIntMarker(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	start := 0
	if m := q.Get("marker"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, obj{"type": "error", "status": 400, "code": "bad_request", "message": "Invalid marker"})
			return
		}
		start = n
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	items, end := window(boxPolicies, start, limit)
	body := obj{"entries": items, "limit": PageSize}
	if end < len(boxPolicies) {
		body["next_marker"] = end
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) mailchimpLists(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	offset, _ := strconv.Atoi(q.Get("offset"))
	count, _ := strconv.Atoi(q.Get("count"))
	if count <= 0 {
		count = 10
	}
	items, _ := window(mailchimpLists, offset, count)
	links := []obj{{"rel": "self", "href": "https://us1.api.mailchimp.com/3.0" + r.URL.Path, "method": "GET"}}
	if r.URL.Path == "/mailchimp/automations" {
		writeJSON(w, http.StatusOK, obj{"automations": items, "total_items": len(mailchimpLists), "_links": links})
		return
	}
	writeJSON(w, http.StatusOK, obj{"lists": items, "total_items": len(mailchimpLists), "constraints": obj{"may_create": true}, "_links": links})
}

// mailchimpMessages answers a conversation's 3 messages in one page,
// beside the conversation's id, total_items and _links.
func (s *Server) mailchimpMessages(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var msgs []obj
	for k := 1; k <= 3; k++ {
		msgs = append(msgs, obj{"id": fmt.Sprintf("m%d", k), "from_email": "a@example.com", "conversation_id": id})
	}
	writeJSON(w, http.StatusOK, obj{"conversation_messages": msgs, "conversation_id": id, "total_items": len(msgs),
		"_links": []obj{{"rel": "self", "href": "https://us1.api.mailchimp.com/3.0" + r.URL.Path, "method": "GET"}}})
}

func (s *Server) asanaProjects(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	start := 0
	if o := q.Get("offset"); o != "" {
		if _, err := fmt.Sscanf(o, "eyJ%d", &start); err != nil {
			writeJSON(w, http.StatusBadRequest, obj{"errors": []obj{{"message": "offset: Your pagination token is invalid."}}})
			return
		}
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	items, end := window(asanaProjects, start, limit)
	var next any
	if end < len(asanaProjects) {
		tok := "eyJ" + strconv.Itoa(end)
		next = obj{"offset": tok, "path": "/projects?limit=" + strconv.Itoa(PageSize) + "&offset=" + tok, "uri": "http://" + r.Host + "/asana/projects?offset=" + tok}
	}
	writeJSON(w, http.StatusOK, obj{"data": items, "next_page": next})
}

func (s *Server) asanaTag(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, obj{"data": obj{"gid": r.PathValue("gid"), "name": "urgent", "resource_type": "tag", "color": "dark-red",
		"followers": []obj{{"gid": "9001", "name": "Ann", "resource_type": "user"}, {"gid": "9002", "name": "Ben", "resource_type": "user"}}}})
}
