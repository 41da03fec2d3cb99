package mattermost

import (
	"context"
	"net/http"

	"github.com/mattermost/mattermost/server/public/model"
)

// api is the part of *model.Client4 the adapter uses; tests replace pieces of it with fakes.
type api interface {
	GetMe(ctx context.Context, etag string) (*model.User, *model.Response, error)
	GetUser(ctx context.Context, userID, etag string) (*model.User, *model.Response, error)
	GetUserByUsername(ctx context.Context, userName, etag string) (*model.User, *model.Response, error)
	GetChannel(ctx context.Context, channelID, etag string) (*model.Channel, *model.Response, error)
	GetChannelByNameForTeamName(ctx context.Context, channelName, teamName, etag string) (*model.Channel, *model.Response, error)
	GetTeamsForUser(ctx context.Context, userID, etag string) ([]*model.Team, *model.Response, error)
	GetChannelsForTeamForUser(ctx context.Context, teamID, userID string, includeDeleted bool, etag string) ([]*model.Channel, *model.Response, error)
	GetPostsSince(ctx context.Context, channelID string, since int64, collapsedThreads bool) (*model.PostList, *model.Response, error)
	GetPost(ctx context.Context, postID, etag string) (*model.Post, *model.Response, error)
	CreatePost(ctx context.Context, post *model.Post) (*model.Post, *model.Response, error)
	PatchPost(ctx context.Context, postID string, patch *model.PostPatch) (*model.Post, *model.Response, error)
	UploadFile(ctx context.Context, data []byte, channelID, filename string) (*model.FileUploadResponse, *model.Response, error)
	SaveReaction(ctx context.Context, reaction *model.Reaction) (*model.Reaction, *model.Response, error)
	GetReactions(ctx context.Context, postID string) ([]*model.Reaction, *model.Response, error)
	DeletePost(ctx context.Context, postID string) (*model.Response, error)
	CreateDirectChannel(ctx context.Context, userID1, userID2 string) (*model.Channel, *model.Response, error)
	GetChannelMember(ctx context.Context, channelID, userID, etag string) (*model.ChannelMember, *model.Response, error)
	GetTeamMember(ctx context.Context, teamID, userID, etag string) (*model.TeamMember, *model.Response, error)
	// DoAPIGet reaches endpoints the client has no method for (groups filtered by member).
	DoAPIGet(ctx context.Context, url, etag string) (*http.Response, error)
}

var _ api = (*model.Client4)(nil)
